/**
 * Measures what site totals cost on writes, side by side with them switched off (SITE_TOTALS_ENABLED): documents
 * and update commands per flush (asserted: they are exact) and wall time per flush (printed, never asserted).
 * Reproduce: npx jest test/integration/siteTotalsWriteCost.test.ts
 */
import { GroupCommitter } from '../../src/ingest/GroupCommitter';
import type { Hit } from '../../src/domain/Hit';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

jest.setTimeout(120_000);

const START = Date.parse('2026-11-21T11:50:00Z');
const ROUNDS = 3;

let database: TestDatabase;
let store: CounterStore;

beforeAll(async () => {
  database = await connectTestDatabase('site_totals_cost');
  store = new CounterStore(database);
  await store.ensureIndexes();
});

afterAll(async () => {
  await database.dropAndClose();
});

/** 1,000 hits on `pages` pages of each of `sites` sites, one every 0.6 s over 10 minutes of one UTC day. */
function thousandHits(prefix: string, sites: number, pages: number): Hit[] {
  return Array.from({ length: 1000 }, (_, i) => ({
    site: `${prefix}-${i % sites}`,
    page: `/p${Math.floor(i / sites) % pages}`,
    at: START + i * 600,
    count: 1,
  }));
}

interface Cost {
  flushes: number;
  updateCommands: number;
  documents: number;
  ms: number;
}

async function measure(
  siteTotals: boolean,
  run: (commit: GroupCommitter | CounterStore) => Promise<void>,
  single: boolean,
): Promise<Cost> {
  const cost: Cost = { flushes: 0, updateCommands: 0, documents: 0, ms: 0 };
  const write = async (batch: CounterBatch): Promise<void> => {
    cost.flushes += 1;
    cost.documents += batch.documents;
    await store.write(batch);
  };
  database.commands.clear();
  const started = performance.now();
  if (single) {
    await run(
      new GroupCommitter(write, {
        intervalMs: 5,
        concurrency: database.engine.requiresSingleWriter ? 1 : 4,
        maxPendingDocuments: 5_000,
        newBatch: () => new CounterBatch({ siteTotals }),
      }),
    );
  } else {
    await run({ write } as unknown as CounterStore);
  }
  cost.ms = performance.now() - started;
  cost.updateCommands = database.commands.get('update') ?? 0;
  return cost;
}

const rows: string[] = [];
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] as number;

describe('write cost of site totals', () => {
  it.each([
    ['1 site × 10 pages', 1, 10],
    ['5 sites × 20 pages', 5, 20],
  ])(
    'a recordHits batch of 1,000 hits on %s: one more daily and monthly upsert per site, in the same commands',
    async (label, sites, pages) => {
      const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const siteTotals of [false, true]) {
          const hits = thousandHits(`b${round}-${siteTotals}-${sites}`, sites, pages);
          // Twice: the first flush creates the documents, the second updates them.
          for (const pass of ['insert', 'update'] as const) {
            const cost = await measure(
              siteTotals,
              async (target) => {
                const batch = new CounterBatch({ siteTotals });
                hits.forEach((hit) => batch.add(hit));
                await (target as unknown as { write: (b: CounterBatch) => Promise<void> }).write(batch);
              },
              false,
            );
            const perCollection = sites * pages + (siteTotals ? sites : 0);
            expect(cost.documents).toBe(2 * perCollection);
            expect(cost.flushes).toBe(1);
            // One command per collection, or per chunk where the engine caps updates per command.
            const max = database.engine.maxUpdatesPerCommand;
            expect(cost.updateCommands).toBe(2 * (max === undefined ? 1 : Math.ceil(perCollection / max)));
            if (pass === 'update') times[siteTotals ? 'on' : 'off'].push(cost.ms);
            if (round === 0)
              rows.push(
                `batch of 1,000 on ${label}, ${pass}, site totals ${siteTotals ? 'on ' : 'off'}: ${cost.documents} documents, ${cost.updateCommands} update commands`,
              );
          }
        }
      }
      rows.push(
        `batch of 1,000 on ${label}, update flush median of ${ROUNDS}: off ${median(times.off).toFixed(0)} ms, on ${median(times.on).toFixed(0)} ms (${(median(times.on) / median(times.off)).toFixed(2)}×)`,
      );
    },
  );

  it('100 concurrent single-hit clients (1,000 hits on 1 site × 10 pages): the same flushes, 2 more documents each', async () => {
    const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
    const perFlush: Record<'on' | 'off', number[]> = { on: [], off: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const siteTotals of [false, true]) {
        const hits = thousandHits(`c${round}-${siteTotals}`, 1, 10);
        const cost = await measure(
          siteTotals,
          async (committer) => {
            await Promise.all(
              Array.from({ length: 100 }, async (_, client) => {
                for (let i = client; i < hits.length; i += 100)
                  await (committer as GroupCommitter).submit([hits[i] as Hit]);
              }),
            );
          },
          true,
        );
        expect(cost.updateCommands).toBeGreaterThanOrEqual(cost.flushes * 2);
        times[siteTotals ? 'on' : 'off'].push(cost.ms);
        perFlush[siteTotals ? 'on' : 'off'].push(cost.documents / cost.flushes);
        if (round === 0)
          rows.push(
            `100 clients × 10, site totals ${siteTotals ? 'on ' : 'off'}: ${JSON.stringify({ ...cost, ms: Math.round(cost.ms) })}`,
          );
      }
    }
    rows.push(
      `100 clients × 10, median of ${ROUNDS}: off ${median(times.off).toFixed(0)} ms, on ${median(times.on).toFixed(0)} ms (${(median(times.on) / median(times.off)).toFixed(2)}×); documents per flush off ${median(perFlush.off).toFixed(1)}, on ${median(perFlush.on).toFixed(1)}`,
    );
  });

  afterAll(() => {
    process.stdout.write(
      `\nsite totals write cost (${database.engine.name} ${database.engine.version}):\n${rows.join('\n')}\n`,
    );
  });
});
