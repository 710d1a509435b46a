/**
 * Events through INGEST_ACK=log (issue 28) against the real server: a window holding events is written with the hit
 * counters under the log's mark, so a crash that left some of its collections written (the event collections
 * among those refused, or among those taken), and a crash after the write but before the checkpoint, both replay
 * to events counted exactly once. The oracle is a recount of the events sent, read back through EventTotals.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig';
import type { HitInputFields } from '../../src/domain/Hit';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { openHitPipeline } from '../../src/ingest/openHitPipeline';
import type { HitPipeline } from '../../src/ingest/openHitPipeline';
import { createLogger } from '../../src/logging/createLogger';
import { EventTotals } from '../../src/query/events/EventTotals';
import type { Database } from '../../src/store/connectDatabase';
import { eventsDailyId } from '../../src/store/eventsDaily';
import { eventsMonthlyId } from '../../src/store/eventsMonthly';
import { EventStore } from '../../src/store/EventStore';
import { Faults, faultyDatabase } from '../support/faultyDatabase';
import { replayWrittenWindow } from '../support/replayWrittenWindow';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const NOW = Date.parse('2026-03-31T12:00:00Z');
const DAY = Date.parse('2026-03-31T00:00:00Z');
const MONTH = Date.parse('2026-03-01T00:00:00Z');
const logger = createLogger({ level: 'silent', nodeEnv: 'test' });
let database: TestDatabase;

beforeAll(async () => {
  database = await connectTestDatabase('eventLog');
});

afterAll(async () => {
  await database.dropAndClose();
});

function open(db: Database, dir: string): Promise<HitPipeline> {
  return openHitPipeline(db, loadConfig({ NODE_ENV: 'test' }), {
    clock: () => NOW,
    logger,
    ingestLog: { dir, windowMs: 60_000 },
  });
}

/** Pageviews and events, some with revenue, from seven visitors. */
function inputs(site: string): HitInputFields[] {
  return Array.from({ length: 30 }, (_, i) => ({
    site,
    page: `/p${i % 3}`,
    at: new Date(NOW - i * 1_000),
    count: 1 + (i % 2),
    visitor: `person-${i % 7}`,
    ...(i % 3 === 0
      ? {}
      : {
          event: i % 3 === 1 ? 'Signup' : 'Purchase',
          props: [{ key: 'plan', value: i % 2 === 0 ? 'pro' : 'free' }],
          revenue: i % 3 === 2 ? { amount: `${i}.50`, currency: 'EUR' } : undefined,
        }),
  }));
}

function recount(sent: readonly HitInputFields[]): { counts: Map<string, number>; eur: number } {
  const counts = new Map<string, number>();
  let eur = 0;
  for (const hit of sent) {
    if (hit.event == null) continue;
    counts.set(hit.event, (counts.get(hit.event) ?? 0) + (hit.count ?? 1));
    if (hit.revenue) eur += Math.round(Number(hit.revenue.amount) * 100) * (hit.count ?? 1);
  }
  return { counts, eur };
}

async function expectExactly(site: string, sent: readonly HitInputFields[]): Promise<void> {
  const store = new EventStore(database);
  const expected = recount(sent);
  const [day] = await store.find('day', [eventsDailyId(site, SITE_TOTAL_PAGE, DAY)]);
  const [month] = await store.find('month', [eventsMonthlyId(site, SITE_TOTAL_PAGE, MONTH)]);
  for (const doc of [day, month]) {
    const totals = new EventTotals(DAY, DAY + 86_400_000, doc ? [doc] : []);
    expect(totals.counts()).toEqual(expected.counts);
    expect(totals.revenue('Purchase')).toEqual(new Map([['EUR', expected.eur]]));
  }
}

describe.each([
  // A window's write commands: the visit sessions first (issue 29), then daily, monthly, seconds, events.daily, ….
  ['an event collection refused', 5, true],
  ['the event collections taken', 3, false],
])('INGEST_ACK=log with events, a crash with %s', (_label, failing, eventsTorn) => {
  it('replays the window to events counted exactly once', async () => {
    const site = `torn${failing}.example`;
    const dir = mkdtempSync(join(tmpdir(), 'tally-event-log-'));
    const faults = new Faults();
    const crashing = await open(faultyDatabase(database, faults), dir);
    const sent = inputs(site);
    for (const input of sent) await crashing.ingest.recordHit(input);
    // The window's Nth bulk write (visit sessions, daily, monthly, seconds, events.daily, events.monthly) is refused.
    faults.failNth(failing, 'before');
    await crashing.close();
    expect(faults.pending).toBe(false);
    if (eventsTorn) await expect(expectExactly(site, sent)).rejects.toThrow();

    const restarted = await open(database, dir);
    await restarted.drain();
    await expectExactly(site, sent);
    await restarted.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('INGEST_ACK=log with events, a crash before the checkpoint', () => {
  it('skips the replayed window that was written already', async () => {
    const site = 'lagging.example';
    const dir = mkdtempSync(join(tmpdir(), 'tally-event-log-'));
    const pipeline = await open(database, dir);
    const sent = inputs(site);
    for (const input of sent) await pipeline.ingest.recordHit(input);
    const restarted = await replayWrittenWindow(
      pipeline,
      dir,
      (again) => open(database, again),
      () => expectExactly(site, sent),
    );
    await restarted.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
