/**
 * The embedded FerretDB's SQLite write-ahead log is cut back to 4 MiB once checkpointed (journal_size_limit; see
 * startFerretdb's launch). Without the limit the file keeps the size of the largest transaction it ever held: a
 * backfill's window writes tens of MB of day documents in one command, and the data directory kept 20 MB of log
 * beside a 35 MB database (docs/benchmarks/peer-goatcounter.md, fifteenth round). Read from the log file itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { createLogger } from '../../src/logging/createLogger';
import { startFerretdb } from '../../src/store/embedded/startFerretdb';

const logger = createLogger({ level: 'silent', nodeEnv: 'test' });
const MIB = 1024 * 1024;

it('cuts the write-ahead log back to 4 MiB after a transaction larger than that', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-wal-limit-'));
  const database = await startFerretdb({ dataDir, logger });
  const client = new MongoClient(database.uri);
  try {
    const collection = client.db('tally').collection<{ _id: number; text: string }>('wal.limit');
    const wal = path.join(dataDir, 'ferretdb', 'tally.sqlite-wal');
    await collection.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, text: '' })));
    // An unordered update command is one transaction on the patched build (patch 17), as a window's counter upserts
    // are: about 10 MB of pages in the log at once, over twice the limit.
    const text = 'x'.repeat(8_000);
    await collection.bulkWrite(
      Array.from({ length: 300 }, (_, i) => ({ updateOne: { filter: { _id: i }, update: { $set: { text } } } })),
      { ordered: false },
    );
    const grown = fs.statSync(wal).size;
    expect(grown).toBeGreaterThan(8 * MIB);
    // The commit checkpointed the log (it is over SQLite's 1,000-page threshold); a later write starts it again from
    // the beginning, and that is when the limit cuts the file (the second small write did when this was written).
    // Without the limit the file keeps its size for good.
    const sizes: number[] = [];
    for (let write = 0; write < 10 && (sizes.at(-1) ?? grown) > 4 * MIB; write++) {
      await collection.insertOne({ _id: -1 - write, text: 'small' });
      sizes.push(fs.statSync(wal).size);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(sizes.at(-1)).toBeLessThanOrEqual(4 * MIB);
    expect(await collection.countDocuments({ text })).toBe(300);
  } finally {
    await client.close();
    await database.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
