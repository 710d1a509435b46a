/**
 * What packing a closed day's dimension counters (`d.<dimension>` → one binary `dz.<dimension>`, packCounters) saves
 * on reads, side by side on one server: the embedded FerretDB build, or any MONGODB_URI. 90 site-days shaped like a
 * busy site's (1,464 minute and hour counters, a compacted 32 KB visitor sketch, eight dimensions with `--values`
 * referrer hosts a day drawn from `--hosts`), stored twice: as written (counter fields) and as compaction leaves them.
 * Timed on both, with the projections and decoding the query layer uses (extraProjection, then the sums of
 * sumBreakdown and fillSeries): a 30-day breakdown of SOURCE (every value), and a 90-day series of one source.
 * Prints medians of `--rounds`, forms alternating; the two forms' answers are compared. No thresholds.
 *   npm run build && node dist/bench/probes/packedCountersRead.js [--values 1000] [--hosts 100000] [--rounds 11]
 */
import { Binary, MongoClient } from 'mongodb';
import type { Collection, Document } from 'mongodb';
import type { Dimension } from '../../src/domain/dimensions/Dimension';
import { dimensionKey } from '../../src/domain/dimensions/dimensionKey';
import { addPackedCounters, packCounters, packedCount } from '../../src/domain/dimensions/packedCounters';
import { createLogger } from '../../src/logging/createLogger';
import { startFerretdb } from '../../src/store/embedded/startFerretdb';
import { extraProjection } from '../../src/store/statsExtras';
import type { DimensionKeys } from '../../src/store/statsExtras';
import { parseOptions } from '../shared/options';
import { fmt, median } from '../shared/stats';

const DAYS = 90;
const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2026, 7, 1);
/** Values a day of each other dimension holds. */
const OTHER_DIMENSIONS: ReadonlyArray<[Dimension, number]> = [
  ['utmSource', 30],
  ['utmMedium', 10],
  ['utmCampaign', 50],
  ['browser', 30],
  ['os', 20],
  ['device', 6],
  ['country', 120],
];

const options = parseOptions(process.argv.slice(2), {
  values: { kind: 'integer', default: 1_000 },
  hosts: { kind: 'integer', default: 100_000 },
  rounds: { kind: 'integer', default: 11 },
});

type Form = 'fields' | 'packed';

/** A deterministic stream in [0, 1). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return state / 2 ** 32;
  };
}

function host(n: number): string {
  return dimensionKey(`referrer-${n}.example.org`);
}

function siteDay(day: number, form: Form): Document {
  const next = random(day + 1);
  const counters = (keys: Iterable<string>): Record<string, number> =>
    Object.fromEntries([...keys].map((key) => [key, 1 + Math.floor(next() * 40)]));
  const sources = new Set<string>(['google']);
  while (sources.size < Math.min(options.values, options.hosts)) sources.add(host(Math.floor(next() * options.hosts)));
  const d: Record<string, Record<string, number>> = { source: counters(sources) };
  for (const [dimension, values] of OTHER_DIMENSIONS) {
    d[dimension] = counters(Array.from({ length: values }, (_, i) => `${dimension}-${i}`));
  }
  const minute: Record<string, Record<string, number>> = {};
  for (let h = 0; h < 24; h++) minute[h] = counters(Array.from({ length: 60 }, (_, m) => String(m)));
  const date = new Date(FIRST_DAY + day * DAY_MS);
  const doc: Document = {
    _id: `${date.toISOString().slice(0, 10)}/probe`,
    metadata: { date, site: 'probe', page: '' },
    daily: 1,
    hourly: counters(Array.from({ length: 24 }, (_, h) => String(h))),
    minute,
    vz: new Binary(new Uint8Array(2 + 4 * 8192).fill(7)),
  };
  if (form === 'fields') doc.d = d;
  else doc.dz = Object.fromEntries(Object.entries(d).map(([k, v]) => [k, new Binary(packCounters(Object.entries(v)))]));
  return doc;
}

interface Timed<T> {
  readonly findMs: number;
  readonly decodeMs: number;
  readonly answer: T;
}

async function timed<T>(
  collection: Collection,
  ids: readonly string[],
  keys: DimensionKeys,
  decode: (docs: Document[]) => T,
): Promise<Timed<T>> {
  const projection = { _id: 0, metadata: 1, ...extraProjection({ dimensions: new Map([['source', keys]]) }) };
  const started = performance.now();
  const docs = await collection.find({ _id: { $in: ids } } as Document, { projection }).toArray();
  const found = performance.now();
  const answer = decode(docs);
  return { findMs: found - started, decodeMs: performance.now() - found, answer };
}

/** sumBreakdown's sum: every value's hits over the documents. */
function breakdown(docs: Document[]): Map<string, number> {
  const hits = new Map<string, number>();
  for (const doc of docs) {
    const counters = doc.d?.source as Record<string, number> | undefined;
    for (const key in counters) hits.set(key, (hits.get(key) ?? 0) + (counters[key] as number));
    const packed = doc.dz?.source as Uint8Array | undefined;
    if (packed) addPackedCounters(packed, hits);
  }
  return hits;
}

/** fillSeries' filtered sum, per day. */
function series(docs: Document[]): number[] {
  return docs
    .sort((a, b) => a.metadata.date - b.metadata.date)
    .map((doc) => {
      const packed = doc.dz?.source as Uint8Array | undefined;
      return ((doc.d?.source?.google as number | undefined) ?? 0) + (packed ? packedCount(packed, 'google') : 0);
    });
}

function sameAnswers(a: unknown, b: unknown): boolean {
  return JSON.stringify(a instanceof Map ? [...a].sort() : a) === JSON.stringify(b instanceof Map ? [...b].sort() : b);
}

async function main(): Promise<void> {
  const embedded = process.env.MONGODB_URI
    ? undefined
    : await startFerretdb({ dataDir: undefined, logger: createLogger({ level: 'warn', nodeEnv: 'production' }) });
  const client = await MongoClient.connect(process.env.MONGODB_URI ?? (embedded?.uri as string), {
    promoteBuffers: true,
  });
  const db = client.db('packed_counters_read');
  try {
    await db.dropDatabase();
    for (const form of ['fields', 'packed'] as const) {
      for (let day = 0; day < DAYS; day++) await db.collection(form).insertOne(siteDay(day, form));
    }
    const ids = Array.from({ length: DAYS }, (_, day) => siteDay(day, 'packed')._id as string);
    const reads: ReadonlyArray<{
      name: string;
      ids: readonly string[];
      keys: DimensionKeys;
      decode: (docs: Document[]) => unknown;
    }> = [
      { name: '30-day breakdown of SOURCE', ids: ids.slice(-30), keys: 'all', decode: breakdown },
      { name: '90-day series of one source', ids, keys: new Set(['google']), decode: series },
    ];
    const bytes = (await db.collection('packed').findOne({}, { projection: { dz: 1 } }))?.dz?.source?.length;
    console.log(
      `${embedded ? 'embedded FerretDB' : process.env.MONGODB_URI}: ${DAYS} site-days, ${options.values} sources a day ` +
        `from ${options.hosts.toLocaleString('en-US')} hosts (packed: ${bytes} bytes a day); medians of ${options.rounds}`,
    );
    console.log('| read | form | find ms | decode ms |');
    console.log('| --- | --- | --- | --- |');
    for (const read of reads) {
      const times: Record<Form, { find: number[]; decode: number[] }> = {
        fields: { find: [], decode: [] },
        packed: { find: [], decode: [] },
      };
      for (let round = 0; round <= options.rounds; round++) {
        const answers: unknown[] = [];
        for (const form of round % 2 === 0 ? (['fields', 'packed'] as const) : (['packed', 'fields'] as const)) {
          const result = await timed(db.collection(form), read.ids, read.keys, read.decode);
          answers.push(result.answer);
          if (round === 0) continue;
          times[form].find.push(result.findMs);
          times[form].decode.push(result.decodeMs);
        }
        if (!sameAnswers(answers[0], answers[1])) throw new Error(`${read.name}: the two forms answer differently`);
      }
      for (const form of ['fields', 'packed'] as const) {
        console.log(
          `| ${read.name} | ${form} | ${fmt(median(times[form].find))} | ${fmt(median(times[form].decode))} |`,
        );
      }
    }
  } finally {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
