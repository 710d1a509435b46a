/**
 * What one flush sends to a real server: one update command per counter collection (or per chunk where the engine
 * caps updates per command), however many hits and documents it holds, with second-level counters and site totals on
 * or off. The timings of the same workloads are bench/probes/secondsWriteCost.ts and siteTotalsWriteCost.ts.
 */
import type { Hit } from '../../src/domain/Hit';
import { GroupCommitter } from '../../src/ingest/GroupCommitter';
import { CounterBatch } from '../../src/store/CounterBatch';
import type { CounterBatchOptions } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

// FerretDB rewrites whole documents and shares two cores with other suites: allow slow runs (no timing asserted).
jest.setTimeout(60_000);

const RETENTION = 48 * 3_600_000;
const NOW = Date.parse('2026-11-21T12:00:00Z');

let database: TestDatabase;
let store: CounterStore;

beforeAll(async () => {
  database = await connectTestDatabase('flush_commands');
  store = new CounterStore(database, { secondsRetentionMs: RETENTION });
  await store.ensureIndexes();
  await store.ensureSecondsIndexes();
});

afterAll(async () => {
  await database.dropAndClose();
});

/** 1,000 hits on `pages` pages of each of `sites` sites, one every 0.6 s over the 10 minutes before NOW. */
function thousandHits(prefix: string, sites: number, pages: number): Hit[] {
  return Array.from({ length: 1000 }, (_, i) => ({
    site: `${prefix}-${i % sites}`,
    page: `/p${Math.floor(i / sites) % pages}`,
    at: NOW - 600_000 + i * 600,
    count: 1,
  }));
}

/** Update commands for one collection's share of a flush: one, or one per chunk where the engine caps them. */
function commandsFor(documents: number): number {
  const max = database.engine.maxUpdatesPerCommand;
  return max === undefined ? 1 : Math.ceil(documents / max);
}

interface Flushes {
  readonly batches: CounterBatch[];
  readonly updateCommands: number;
}

async function flushes(run: (write: (batch: CounterBatch) => Promise<void>) => Promise<void>): Promise<Flushes> {
  const batches: CounterBatch[] = [];
  database.commands.clear();
  await run(async (batch) => {
    batches.push(batch);
    await store.write(batch);
  });
  return { batches, updateCommands: database.commands.get('update') ?? 0 };
}

const oneBatch = (options: CounterBatchOptions, hits: readonly Hit[]) =>
  flushes(async (write) => {
    const batch = new CounterBatch(options);
    hits.forEach((hit) => batch.add(hit));
    await write(batch);
  });

/** 100 clients each sending its share of the hits one `recordHit` at a time, through group commit. */
const singleHitClients = (options: CounterBatchOptions, hits: readonly Hit[]) =>
  flushes(async (write) => {
    const committer = new GroupCommitter(write, {
      intervalMs: 5,
      concurrency: database.engine.requiresSingleWriter ? 1 : 4,
      maxPendingDocuments: 5_000,
      newBatch: () => new CounterBatch(options),
    });
    await Promise.all(
      Array.from({ length: 100 }, async (_, client) => {
        for (let i = client; i < hits.length; i += 100) await committer.submit([hits[i] as Hit]);
      }),
    );
  });

const seconds = { seconds: { now: NOW, retentionMs: RETENTION } };

describe('update commands per flush against a real server', () => {
  it.each([
    ['on', seconds, 100],
    ['off', {}, 0],
  ])(
    'writes 1,000 hits on 10 pages as one flush of one update command per collection, seconds %s',
    async (label, options, secondDocuments) => {
      const { batches, updateCommands } = await oneBatch(options, thousandHits(`batch-${label}`, 1, 10));
      expect(batches).toHaveLength(1);
      // 10 daily and 10 monthly documents, plus 10 pages × 10 minutes of second-level documents when on.
      expect(batches[0]?.documents).toBe(20 + secondDocuments);
      expect(updateCommands).toBe(
        commandsFor(10) + commandsFor(10) + (secondDocuments ? commandsFor(secondDocuments) : 0),
      );
    },
  );

  it.each([
    ['on', seconds, 3],
    ['off', {}, 2],
  ])(
    'coalesces 100 concurrent single-hit clients into flushes of one update command per collection, seconds %s',
    async (label, options, perFlush) => {
      const { batches, updateCommands } = await singleHitClients(options, thousandHits(`single-${label}`, 1, 10));
      expect(batches.length).toBeGreaterThan(0);
      expect(batches.length).toBeLessThan(1000);
      expect(updateCommands).toBe(batches.length * perFlush);
    },
  );

  it.each([
    ['1 site × 10 pages', 1, 10],
    ['5 sites × 20 pages', 5, 20],
  ])(
    'adds one daily and one monthly document per site to a batch of 1,000 hits on %s, in the same commands',
    async (_label, sites, pages) => {
      for (const siteTotals of [false, true]) {
        const hits = thousandHits(`totals-${siteTotals}-${sites}`, sites, pages);
        const perCollection = sites * pages + (siteTotals ? sites : 0);
        // Twice: the first flush creates the documents, the second updates them.
        for (const pass of ['insert', 'update']) {
          const { batches, updateCommands } = await oneBatch({ siteTotals }, hits);
          expect({ pass, siteTotals, documents: batches[0]?.documents }).toEqual({
            pass,
            siteTotals,
            documents: 2 * perCollection,
          });
          expect(updateCommands).toBe(2 * commandsFor(perCollection));
        }
      }
    },
  );

  it('carries the site totals in every flush of 100 concurrent single-hit clients, at no extra command', async () => {
    const { batches, updateCommands } = await singleHitClients({ siteTotals: true }, thousandHits('clients', 1, 10));
    expect(batches.length).toBeGreaterThan(0);
    for (const batch of batches) {
      expect(batch.daily.keys().filter((key) => key.page === '')).toHaveLength(1);
      expect(batch.monthly.keys().filter((key) => key.page === '')).toHaveLength(1);
    }
    expect(updateCommands).toBe(batches.length * 2);
  });
});
