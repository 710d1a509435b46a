/**
 * What a compacted visitor sketch (one binary, `vz`) costs to read against its register fields (`v`, one int32 per
 * register), on the embedded FerretDB build or any MONGODB_URI: 200 page-days, each a saturated 2^11-register
 * sketch beside 1,464 counters, read by `_id` with the projections a dashboard uses. Prints milliseconds per find,
 * each find twice. No thresholds.
 *   npm run build && node dist/bench/probes/compactedSketchRead.js [--binary .tools/ferretdb-…/ferretdb]
 */
import { Binary, MongoClient } from 'mongodb';
import type { Document } from 'mongodb';
import { splitmix64 } from '../../src/domain/visitors/splitmix64';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';
import { createLogger } from '../../src/logging/createLogger';
import { startFerretdb } from '../../src/store/embedded/startFerretdb';

const DOCUMENTS = 200;
const DAY_MS = 86_400_000;

function pageDay(i: number, form: 'v' | 'vz'): Document {
  const sketch = VisitorSketch.empty(11);
  for (let k = 0; k < 20_000; k++) sketch.add(splitmix64(i, k));
  const hourly: Record<string, number> = {};
  const minute: Record<string, Record<string, number>> = {};
  for (let h = 0; h < 24; h++) {
    hourly[h] = 5;
    minute[h] = Object.fromEntries(Array.from({ length: 60 }, (_, m) => [m, 3]));
  }
  const doc: Document = { _id: `d${i}`, metadata: { site: 's', page: '/p', date: new Date(i * DAY_MS) } };
  Object.assign(doc, { daily: 9, hourly, minute });
  if (form === 'v') doc.v = sketch.toStoredFields();
  else doc.vz = new Binary(sketch.toPacked());
  return doc;
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--binary');
  const binary = at > 0 ? process.argv[at + 1] : undefined;
  const embedded = process.env.MONGODB_URI
    ? undefined
    : await startFerretdb({
        dataDir: undefined,
        logger: createLogger({ level: 'warn', nodeEnv: 'production' }),
        binary,
      });
  const client = await MongoClient.connect(process.env.MONGODB_URI ?? (embedded?.uri as string));
  const db = client.db('compacted_sketch_read');
  try {
    await db.dropDatabase();
    for (const form of ['v', 'vz'] as const) {
      await db.collection(form).insertMany(Array.from({ length: DOCUMENTS }, (_, i) => pageDay(i, form)));
    }
    const ids = Array.from({ length: DOCUMENTS }, (_, i) => `d${i}`);
    const projections = [
      { _id: 0, metadata: 1, v: 1, vz: 1 },
      { _id: 0, metadata: 1, hourly: 1 },
    ];
    for (let round = 0; round < 2; round++) {
      for (const form of ['v', 'vz']) {
        for (const projection of projections) {
          const started = performance.now();
          const docs = await db
            .collection(form)
            .find({ _id: { $in: ids } } as Document, { projection, promoteBuffers: true })
            .toArray();
          const ms = (performance.now() - started).toFixed(1);
          console.log(
            `${form === 'v' ? 'register fields' : 'compacted'} ${JSON.stringify(projection)}: ${docs.length} documents, ${ms} ms`,
          );
        }
      }
    }
    await db.dropDatabase();
  } finally {
    await client.close();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
