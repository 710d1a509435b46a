/**
 * Measures what second-level counting costs on writes: update commands per flush and per 1,000 hits, and the
 * documents those commands update, with SECONDS_ENABLED on and off. Prints a table; asserts only exact counts.
 * Reproduce: npx jest test/integration/secondsWriteCost.test.ts
 */
import { GroupCommitter } from '../../src/ingest/GroupCommitter';
import type { Hit } from '../../src/domain/Hit';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

// FerretDB rewrites whole documents and shares two cores with other suites: allow slow runs (no timing asserted).
jest.setTimeout(60_000);

const RETENTION = 48 * 3_600_000;
const NOW = Date.parse('2026-11-21T12:00:00Z');
const PAGES = 10;

let database: TestDatabase;
let store: CounterStore;

beforeAll(async () => {
  database = await connectTestDatabase('seconds_cost');
  store = new CounterStore(database, { secondsRetentionMs: RETENTION });
  await store.ensureIndexes();
  await store.ensureSecondsIndexes();
});

afterAll(async () => {
  await database.dropAndClose();
});

/** 1,000 hits on 10 pages, one every 0.6 s over the last 10 minutes. */
function thousandHits(site: string): Hit[] {
  return Array.from({ length: 1000 }, (_, i) => ({
    site,
    page: `/p${i % PAGES}`,
    at: NOW - 600_000 + i * 600,
    count: 1,
  }));
}

const newBatch = (seconds: boolean) => () =>
  new CounterBatch(seconds ? { seconds: { now: NOW, retentionMs: RETENTION } } : {});

interface Cost {
  flushes: number;
  updateCommands: number;
  documents: number;
}

async function measure(run: (write: (batch: CounterBatch) => Promise<void>) => Promise<void>): Promise<Cost> {
  const cost: Cost = { flushes: 0, updateCommands: 0, documents: 0 };
  database.commands.clear();
  await run(async (batch) => {
    cost.flushes += 1;
    cost.documents += batch.documents;
    await store.write(batch);
  });
  cost.updateCommands = database.commands.get('update') ?? 0;
  return cost;
}

const rows: string[] = [];

describe('write cost of second-level counters', () => {
  it.each([
    [true, 3],
    [false, 2],
  ])(
    'a recordHits batch of 1,000 hits with seconds %s is one flush of %d update commands',
    async (seconds, commands) => {
      const cost = await measure(async (write) => {
        const batch = newBatch(seconds)();
        thousandHits(`batch-${seconds}`).forEach((hit) => batch.add(hit));
        await write(batch);
      });
      // FerretDB splits the 100 second-level upserts into commands of at most 90 (EngineInfo.maxUpdatesPerCommand).
      const chunks = seconds ? Math.ceil(100 / (database.engine.maxUpdatesPerCommand ?? Infinity)) - 1 : 0;
      expect(cost).toMatchObject({ flushes: 1, updateCommands: commands + Math.max(0, chunks) });
      // 10 daily + 10 monthly documents, plus 10 pages × 10 minutes of second-level documents when on.
      expect(cost.documents).toBe(seconds ? 20 + 100 : 20);
      rows.push(`batch of 1,000, seconds ${seconds ? 'on ' : 'off'}: ${JSON.stringify(cost)}`);
    },
  );

  it.each([true, false])('100 concurrent single-hit clients (1,000 hits) with seconds %s', async (seconds) => {
    const cost = await measure(async (write) => {
      const committer = new GroupCommitter(write, {
        intervalMs: 5,
        concurrency: database.engine.requiresSingleWriter ? 1 : 4,
        maxPendingDocuments: 5_000,
        newBatch: newBatch(seconds),
      });
      const hits = thousandHits(`single-${seconds}`);
      await Promise.all(
        Array.from({ length: 100 }, async (_, client) => {
          for (let i = client; i < hits.length; i += 100) await committer.submit([hits[i] as Hit]);
        }),
      );
    });
    expect(cost.updateCommands).toBe(cost.flushes * (seconds ? 3 : 2));
    rows.push(
      `100 clients × 10, seconds ${seconds ? 'on ' : 'off'}: ${JSON.stringify(cost)}, update commands per flush ${cost.updateCommands / cost.flushes}`,
    );
  });

  afterAll(() => {
    process.stdout.write(
      `\nsecond-level write cost (${database.engine.name} ${database.engine.version}):\n${rows.join('\n')}\n`,
    );
  });
});
