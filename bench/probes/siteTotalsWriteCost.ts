/**
 * What site totals cost on writes, side by side with them switched off (SITE_TOTALS_ENABLED): documents and update
 * commands per flush (exact) and wall time per flush (median of the rounds, on and off alternating; noisy on a
 * shared machine). Prints numbers; no thresholds. The counts are asserted by test/integration/flushCommands.test.ts.
 * Before this was a probe it ran as test/integration/siteTotalsWriteCost.test.ts.
 *   npm run build && node dist/bench/probes/siteTotalsWriteCost.js [--rounds 3]
 */
import type { Hit } from '../../src/domain/Hit';
import { GroupCommitter } from '../../src/ingest/GroupCommitter';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { parseOptions } from '../shared/options';
import { openProbeDatabase } from '../shared/probeDatabase';
import type { ProbeDatabase } from '../shared/probeDatabase';
import { median } from '../shared/stats';

const START = Date.parse('2026-11-21T11:50:00Z');

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

type Write = (batch: CounterBatch) => Promise<void>;

async function measure(probe: ProbeDatabase, store: CounterStore, run: (write: Write) => Promise<void>): Promise<Cost> {
  const cost: Cost = { flushes: 0, updateCommands: 0, documents: 0, ms: 0 };
  probe.commands.clear();
  const started = performance.now();
  await run(async (batch) => {
    cost.flushes += 1;
    cost.documents += batch.documents;
    await store.write(batch);
  });
  cost.ms = performance.now() - started;
  cost.updateCommands = probe.commands.get('update') ?? 0;
  return cost;
}

async function main(): Promise<void> {
  const { rounds } = parseOptions(process.argv.slice(2), { rounds: { kind: 'integer', default: 3 } });
  const probe = await openProbeDatabase('site_totals_cost');
  try {
    const store = new CounterStore(probe.database);
    await store.ensureIndexes();
    const { engine } = probe.database;
    console.log(`site totals write cost, ${probe.label}, median of ${rounds} rounds:`);
    for (const [label, sites, pages] of [
      ['1 site × 10 pages', 1, 10],
      ['5 sites × 20 pages', 5, 20],
    ] as const) {
      const times = { on: [] as number[], off: [] as number[] };
      for (let round = 0; round < rounds; round++) {
        for (const siteTotals of [false, true]) {
          const hits = thousandHits(`b${round}-${siteTotals}-${sites}`, sites, pages);
          // Twice: the first flush creates the documents, the second updates them.
          for (const pass of ['insert', 'update'] as const) {
            const cost = await measure(probe, store, async (write) => {
              const batch = new CounterBatch({ siteTotals });
              hits.forEach((hit) => batch.add(hit));
              await write(batch);
            });
            if (pass === 'update') times[siteTotals ? 'on' : 'off'].push(cost.ms);
            if (round === 0)
              console.log(
                `  recordHits of 1,000 on ${label}, ${pass} flush, site totals ${siteTotals ? 'on ' : 'off'}: ` +
                  `${cost.documents} documents, ${cost.updateCommands} update commands`,
              );
          }
        }
      }
      const [off, on] = [median(times.off), median(times.on)];
      console.log(
        `  recordHits of 1,000 on ${label}, update flush: off ${off.toFixed(0)} ms, on ${on.toFixed(0)} ms (${(on / off).toFixed(2)}×)`,
      );
    }
    const times = { on: [] as number[], off: [] as number[] };
    const perFlush = { on: [] as number[], off: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      for (const siteTotals of [false, true]) {
        const hits = thousandHits(`c${round}-${siteTotals}`, 1, 10);
        const cost = await measure(probe, store, async (write) => {
          const committer = new GroupCommitter(write, {
            intervalMs: 5,
            concurrency: engine.requiresSingleWriter ? 1 : 4,
            maxPendingDocuments: 5_000,
            newBatch: () => new CounterBatch({ siteTotals }),
          });
          await Promise.all(
            Array.from({ length: 100 }, async (_, client) => {
              for (let i = client; i < hits.length; i += 100) await committer.submit([hits[i] as Hit]);
            }),
          );
        });
        const key = siteTotals ? 'on' : 'off';
        times[key].push(cost.ms);
        perFlush[key].push(cost.documents / cost.flushes);
        if (round === 0)
          console.log(
            `  100 clients × 10 hits, site totals ${siteTotals ? 'on ' : 'off'}: ${cost.flushes} flushes, ` +
              `${cost.documents} documents, ${cost.updateCommands} update commands, ${cost.ms.toFixed(0)} ms`,
          );
      }
    }
    const [off, on] = [median(times.off), median(times.on)];
    console.log(
      `  100 clients × 10 hits: off ${off.toFixed(0)} ms, on ${on.toFixed(0)} ms (${(on / off).toFixed(2)}×); ` +
        `documents per flush off ${median(perFlush.off).toFixed(1)}, on ${median(perFlush.on).toFixed(1)}`,
    );
  } finally {
    await probe.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
