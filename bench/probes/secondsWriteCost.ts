/**
 * What second-level counting costs on writes, with SECONDS_ENABLED on and off: flushes, update commands and the
 * documents they update, for one recordHits batch of 1,000 hits and for 100 concurrent single-hit clients sending
 * the same 1,000. Prints numbers; no thresholds. The counts are asserted by test/integration/flushCommands.test.ts.
 * Before this was a probe it ran as test/integration/secondsWriteCost.test.ts.
 *   npm run build && node dist/bench/probes/secondsWriteCost.js
 */
import type { Hit } from '../../src/domain/Hit';
import { GroupCommitter } from '../../src/ingest/GroupCommitter';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { parseOptions } from '../shared/options';
import { openProbeDatabase } from '../shared/probeDatabase';
import type { ProbeDatabase } from '../shared/probeDatabase';

const RETENTION = 48 * 3_600_000;
const PAGES = 10;

/** 1,000 hits on 10 pages, one every 0.6 s over the 10 minutes before `now`. */
function thousandHits(site: string, now: number): Hit[] {
  return Array.from({ length: 1000 }, (_, i) => ({
    site,
    page: `/p${i % PAGES}`,
    at: now - 600_000 + i * 600,
    count: 1,
  }));
}

interface Cost {
  flushes: number;
  updateCommands: number;
  documents: number;
}

type Write = (batch: CounterBatch) => Promise<void>;

async function measure(probe: ProbeDatabase, store: CounterStore, run: (write: Write) => Promise<void>): Promise<Cost> {
  const cost: Cost = { flushes: 0, updateCommands: 0, documents: 0 };
  probe.commands.clear();
  await run(async (batch) => {
    cost.flushes += 1;
    cost.documents += batch.documents;
    await store.write(batch);
  });
  cost.updateCommands = probe.commands.get('update') ?? 0;
  return cost;
}

const describe = (cost: Cost): string =>
  `${cost.flushes} flushes, ${cost.updateCommands} update commands (${cost.updateCommands / cost.flushes} per flush), ` +
  `${cost.documents} documents`;

async function main(): Promise<void> {
  parseOptions(process.argv.slice(2), {});
  // On a minute boundary, so the 10 minutes of hits fill exactly 10 second-level documents per page.
  const started = Date.now();
  const now = started - (started % 60_000);
  const probe = await openProbeDatabase('seconds_cost');
  try {
    const store = new CounterStore(probe.database, { secondsRetentionMs: RETENTION });
    await store.ensureIndexes();
    await store.ensureSecondsIndexes();
    const newBatch = (seconds: boolean) => (): CounterBatch =>
      new CounterBatch(seconds ? { seconds: { now, retentionMs: RETENTION } } : {});
    console.log(`second-level write cost, ${probe.label}:`);
    for (const seconds of [true, false]) {
      const cost = await measure(probe, store, async (write) => {
        const batch = newBatch(seconds)();
        thousandHits(`batch-${seconds}`, now).forEach((hit) => batch.add(hit));
        await write(batch);
      });
      console.log(`  recordHits of 1,000 on ${PAGES} pages, seconds ${seconds ? 'on ' : 'off'}: ${describe(cost)}`);
    }
    for (const seconds of [true, false]) {
      const cost = await measure(probe, store, async (write) => {
        const committer = new GroupCommitter(write, {
          intervalMs: 5,
          concurrency: probe.database.engine.requiresSingleWriter ? 1 : 4,
          maxPendingDocuments: 5_000,
          newBatch: newBatch(seconds),
        });
        const hits = thousandHits(`single-${seconds}`, now);
        await Promise.all(
          Array.from({ length: 100 }, async (_, client) => {
            for (let i = client; i < hits.length; i += 100) await committer.submit([hits[i] as Hit]);
          }),
        );
      });
      console.log(`  100 clients × 10 hits, seconds ${seconds ? 'on ' : 'off'}: ${describe(cost)}`);
    }
  } finally {
    await probe.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
