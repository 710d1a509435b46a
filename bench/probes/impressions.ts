/**
 * Measures the impression counters: write commands per batch (command monitoring) and stored bytes per
 * document and index entry (exact BSON sizes, plus the engine's collStats, which on FerretDB are page-granular).
 * Run: `npm run build && node dist/bench/probes/impressions.js` (MONGODB_URI to use a running server).
 */
import { BSON, Long, ObjectId } from 'mongodb';
import { createLogger } from '../../src/logging/createLogger';
import { connectDatabase } from '../../src/store/connectDatabase';
import { startEmbeddedDatabase } from '../../src/store/embedded/startEmbeddedDatabase';
import { ImpressionBatch } from '../../src/store/ImpressionBatch';
import { IMPRESSION_ITEMS_COLLECTION, impressionItemIndexes } from '../../src/store/impressionItems';
import { IMPRESSION_PAIRS_COLLECTION, impressionPairIndexes, pairId } from '../../src/store/impressionPairs';
import { ImpressionStore } from '../../src/store/ImpressionStore';
import { parseOptions } from '../shared/options';

async function main(): Promise<void> {
  parseOptions(process.argv.slice(2), {});
  const logger = createLogger({ level: 'warn', nodeEnv: 'production' });
  const embedded = process.env.MONGODB_URI
    ? undefined
    : await startEmbeddedDatabase({ engine: 'auto', dataDir: undefined, logger, now: Date.now() });
  const commands = new Map<string, number>();
  const database = await connectDatabase({
    uri: process.env.MONGODB_URI ?? (embedded?.uri as string),
    dbName: `bench_impressions_${process.pid}`,
    logger,
    onCommand: (name) => commands.set(name, (commands.get(name) ?? 0) + 1),
  });
  try {
    console.log(`engine: ${database.engine.name} ${database.engine.version}`);
    const store = new ImpressionStore(database);
    await store.ensureIndexes();
    const hex = (n: number): string => n.toString(16).padStart(24, '0');

    // Round trips. Batches of new pairs (24-character ids, ObjectId-sized as hex), 97 users.
    let offset = 0;
    for (const size of [1_000, 10_000]) {
      const batch = ImpressionBatch.of(
        Array.from({ length: size }, (_, n) => ({ userId: hex(n % 97), itemId: hex(offset + n), count: 1 })),
      );
      offset += size;
      commands.clear();
      await store.write(batch);
      console.log(
        `batch of ${size} (${batch.pairCount} pairs, ${batch.itemCount} items) via ImpressionStore: ${JSON.stringify(Object.fromEntries(commands))}`,
      );
      // The MongoDB path (one unordered bulkWrite per collection) on fresh collections, where every pair is new:
      // FerretDB answers that in one command too (it hangs only on 100+ modified existing documents). The
      // command count is the driver's split, the same for either targeting; idOnly keeps FerretDB's upserts
      // indexed (with the shard-key filter each one scans the table: quadratic in the batch).
      commands.clear();
      await database.db
        .collection(`mongoPath${size}.pairs`)
        .bulkWrite(batch.pairOperations('idOnly'), { ordered: false });
      await database.db.collection(`mongoPath${size}.items`).bulkWrite(batch.itemOperations(), { ordered: false });
      console.log(`batch of ${size}, one bulkWrite per collection: ${JSON.stringify(Object.fromEntries(commands))}`);
    }

    // Exact BSON sizes.
    const u = hex(1);
    const i = hex(2);
    const size = (doc: object): number => BSON.calculateObjectSize(doc);
    const pairDoc = { _id: pairId(u, i), u, i, c: 1 };
    console.log(`pair document, 24-char ids, int32 count: ${size(pairDoc)} bytes`);
    console.log(`  same with a count past 2^31 (double/long): ${size({ ...pairDoc, c: 2 ** 33 })} bytes`);
    console.log(`  compound _id {u, i} alternative: ${size({ _id: { u, i }, c: 1 })} bytes`);
    console.log(`item total document: ${size({ _id: i, c: 1 })} bytes`);
    const seedFinal = {
      _id: new ObjectId(),
      u: new ObjectId(),
      d: new ObjectId(),
      c: 0,
      h: Long.fromString('-8777556310190452075'),
    };
    console.log(
      `seed's final document in BSON (ObjectId _id, u, d, int c, long h): ${size(seedFinal)} bytes (seed said 40)`,
    );
    // Index keys as BSON values with empty names (what a key holds; WiredTiger's KeyString is of this order).
    const key = (...values: unknown[]): number =>
      size(Object.fromEntries(values.map((v, n) => [`${n}`, v]))) - values.length * 2;
    for (const index of impressionPairIndexes) {
      console.log(`index ${index.name} key values: ~${key(u, 1, i)} bytes + record id`);
    }
    console.log(`index _id_ (pairs) key value: ~${key(pairId(u, i))} bytes + record id`);
    console.log(`index ${impressionItemIndexes[0].name} key values: ~${key(1, i)} bytes + record id`);

    // What the engine reports (FerretDB/SQLite: pages of 4 KiB, documents stored as JSON, not BSON).
    for (const name of [IMPRESSION_PAIRS_COLLECTION, IMPRESSION_ITEMS_COLLECTION]) {
      const stats = await database.db.command({ collStats: name });
      const count = stats.count as number;
      const perIndex = Object.entries(stats.indexSizes as Record<string, number>)
        .map(([index, bytes]) => `${index} ${(bytes / count).toFixed(1)}`)
        .join(', ');
      console.log(
        `collStats ${name}: ${count} documents, ${(stats.size / count).toFixed(1)} data bytes/doc, ` +
          `${(stats.storageSize / count).toFixed(1)} storage bytes/doc; index bytes/entry: ${perIndex}`,
      );
    }
  } finally {
    await database.db.dropDatabase().catch(() => undefined);
    await database.close();
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
