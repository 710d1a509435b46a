/**
 * Client CPU per counter upsert, the driver's `collection.bulkWrite` against the same 1,000 upserts sent as one
 * `update` command (`db.command`), side by side on the embedded engine, rounds alternating. Prints the median
 * client CPU µs per upsert of each; no thresholds. The gap is the bulk machinery's work per operation (option
 * normalisation, a size walk, result merging), the largest remaining cost of ingesting hits that touch many documents.
 *   npm run build && node dist/bench/probes/upsertCommandCost.js [--rounds 7]
 */
import { MongoClient } from 'mongodb';
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { parseOptions } from '../shared/options';
import { median } from '../shared/stats';
import { openTarget } from '../shared/target';

const OPS = 1_000;
const BATCHES = 5;

async function main(): Promise<void> {
  const { rounds } = parseOptions(process.argv.slice(2), { rounds: { kind: 'integer', default: 7 } });
  const target = await openTarget({});
  const client = new MongoClient(target.uri, { maxPoolSize: 1, monitorCommands: true });
  client.on('commandStarted', () => undefined);
  const date = new Date(Date.UTC(2026, 10, 22));
  let n = 0;
  const updates = (): Array<{ q: Document; u: Document; upsert: true }> =>
    Array.from({ length: OPS }, () => {
      n += 1;
      return {
        q: { _id: `202611221700/s/p${n}`, 'metadata.site': 's', 'metadata.page': `/p${n}` },
        u: { $setOnInsert: { 'metadata.date': date }, $inc: { minute: 1, [`seconds.${n % 60}`]: 1 } },
        upsert: true,
      };
    });
  try {
    const db = client.db('upsert_command_cost');
    const variants: Record<string, () => Promise<unknown>> = {
      'collection.bulkWrite': () =>
        db.collection('bulk').bulkWrite(
          updates().map((o): AnyBulkWriteOperation<Document> => ({
            updateOne: { filter: o.q, update: o.u, upsert: true },
          })),
          { ordered: false },
        ),
      'db.command({update})': () => db.command({ update: 'command', updates: updates(), ordered: false }),
    };
    const samples = new Map<string, number[]>(Object.keys(variants).map((name) => [name, []]));
    for (let round = 0; round <= rounds; round++) {
      for (const [name, send] of Object.entries(variants)) {
        const cpu = process.cpuUsage();
        for (let b = 0; b < BATCHES; b++) await send();
        const used = process.cpuUsage(cpu);
        // Round 0 warms up the JIT and the collections.
        if (round > 0) samples.get(name)?.push((used.user + used.system) / (BATCHES * OPS));
      }
    }
    console.log(`client CPU per upsert, batches of ${OPS}, ${target.label}, median of ${rounds} rounds:`);
    for (const [name, values] of samples) console.log(`  ${name}: ${median(values).toFixed(2)} µs`);
  } finally {
    await client.close();
    await target.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
