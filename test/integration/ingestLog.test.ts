/**
 * INGEST_ACK=log against the real server (issue 27): hits acknowledged from the local log reach the counter
 * documents once per window, and a replay after a crash counts each of them exactly once — whether the crash came
 * mid-window (some collections written, others not) or after the window was written but before its checkpoint.
 * The oracle is storedCounters/expectedCounters and the sketches' expected registers: independent of the log.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig';
import type { Hit, HitInputFields } from '../../src/domain/Hit';
import { openHitPipeline } from '../../src/ingest/openHitPipeline';
import { REQUESTS_COLLECTION } from '../../src/store/requestLedger';
import type { HitPipeline } from '../../src/ingest/openHitPipeline';
import { createLogger } from '../../src/logging/createLogger';
import type { Database } from '../../src/store/connectDatabase';
import { Faults, faultyDatabase } from '../support/faultyDatabase';
import { replayWrittenWindow } from '../support/replayWrittenWindow';
import { expectedCounters, expectedSketches, storedCounters, storedSketches } from '../support/storedCounters';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const NOW = Date.parse('2026-03-31T23:59:30Z');
const logger = createLogger({ level: 'silent', nodeEnv: 'test' });
let database: TestDatabase;
/** Ledger entries before a test's keyed requests (the database is shared by this file's tests). */
let ledgerBefore = 0;

beforeAll(async () => {
  database = await connectTestDatabase('ingestLog');
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

/** Hits over midnight and a month end, with visitors, referrers and User-Agents (so sketches and dimensions). */
function inputs(site: string, n: number): HitInputFields[] {
  return Array.from({ length: n }, (_, i) => ({
    site,
    page: `/p${i % 4}`,
    at: new Date(NOW - (i % 3) * 45_000),
    count: 1 + (i % 2),
    visitor: `person-${i % 7}`,
    referrer: i % 2 === 0 ? 'https://news.example.org/x' : null,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  }));
}

async function record(pipeline: HitPipeline, site: string, n: number): Promise<Hit[]> {
  return Promise.all(inputs(site, n).map((input) => pipeline.ingest.recordHit(input)));
}

async function expectExactly(site: string, hits: readonly Hit[]): Promise<void> {
  expect(await storedCounters(database.db, site)).toEqual(expectedCounters(hits, { siteTotals: true }));
  expect(await storedSketches(database.db, site)).toEqual(expectedSketches(hits, { siteTotals: true }));
}

beforeEach(async () => {
  ledgerBefore = await database.db.collection(REQUESTS_COLLECTION).countDocuments();
});

describe('INGEST_ACK=log', () => {
  it('acknowledges before the database write and writes every hit once the window closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-ingest-log-'));
    const pipeline = await open(database, dir);
    const hits = await record(pipeline, 'acked.example', 24);
    // Acknowledged from the log: the window (60 s) has not closed, so nothing is in the database yet.
    expect(await storedCounters(database.db, 'acked.example')).toEqual(new Map());
    await pipeline.drain();
    await expectExactly('acked.example', hits);
    await pipeline.close();
  });

  it('counts a window exactly once after a crash that left some of its collections written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-ingest-log-'));
    const faults = new Faults();
    const crashing = await open(faultyDatabase(database, faults), dir);
    const hits = await record(crashing, 'torn.example', 30);
    // The window's second bulk write (the monthly documents) is refused; daily and minute documents take it.
    faults.failNth(2, 'before');
    // close() tries once and leaves the window in the log, as a process killed at that moment would.
    await crashing.close();
    expect(faults.pending).toBe(false);
    const partial = await storedCounters(database.db, 'torn.example');
    expect(partial.size).toBeGreaterThan(0);
    expect(partial).not.toEqual(expectedCounters(hits, { siteTotals: true }));

    const restarted = await open(database, dir);
    await restarted.drain();
    await expectExactly('torn.example', hits);
    await restarted.close();
  });

  it('acknowledges keyed requests from the log and claims their keys in the window: retries answer the original result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-ingest-log-'));
    const pipeline = await open(database, dir);
    const keyed = inputs('keyed.example', 12);
    const unkeyed = await record(pipeline, 'keyed.example', 9);
    const first = await pipeline.ingest.recordHits(keyed, { idempotencyKey: 'batch-1' });
    // Acknowledged from the log: neither the counters nor the ledger have it before the window (60 s) is written.
    expect(await storedCounters(database.db, 'keyed.example')).toEqual(new Map());
    expect(await database.db.collection(REQUESTS_COLLECTION).countDocuments()).toBe(ledgerBefore);
    // Retries while the window is open are answered from the log's pending keys; another payload is refused.
    const retries = await Promise.all([
      pipeline.ingest.recordHits(keyed, { idempotencyKey: 'batch-1' }),
      pipeline.ingest.recordHits(keyed, { idempotencyKey: 'batch-1' }),
    ]);
    expect(retries).toEqual([first, first]);
    await expect(pipeline.ingest.recordHits(keyed.slice(1), { idempotencyKey: 'batch-1' })).rejects.toMatchObject({
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    const more = await record(pipeline, 'keyed.example', 5);
    await pipeline.drain();
    expect(await database.db.collection(REQUESTS_COLLECTION).countDocuments()).toBe(ledgerBefore + 1);
    // After the window: the ledger and the window's marks answer.
    expect(await pipeline.ingest.recordHits(keyed, { idempotencyKey: 'batch-1' })).toEqual(first);
    await pipeline.drain();
    const keyedHits = await Promise.all(keyed.map((input) => pipeline.ingest.recordHit(input)));
    await pipeline.drain();
    // keyedHits were recorded once more, unkeyed, to learn their derived fields: the batch counts twice, not four times.
    await expectExactly('keyed.example', [...unkeyed, ...more, ...keyedHits, ...keyedHits]);
    await pipeline.close();
  });

  it('counts a key sent to two logs at once once: the window that claims it second leaves it out', async () => {
    const one = await open(database, mkdtempSync(join(tmpdir(), 'tally-ingest-log-')));
    const two = await open(database, mkdtempSync(join(tmpdir(), 'tally-ingest-log-')));
    const keyed = inputs('two-logs.example', 10);
    const [a, b] = await Promise.all([
      one.ingest.recordHits(keyed, { idempotencyKey: 'both' }),
      two.ingest.recordHits(keyed, { idempotencyKey: 'both' }),
    ]);
    expect(a).toEqual(b);
    const unkeyed = await record(two, 'two-logs.example', 4);
    await one.drain();
    await two.drain();
    const keyedHits = await Promise.all(keyed.map((input) => one.ingest.recordHit(input)));
    await one.drain();
    await expectExactly('two-logs.example', [...unkeyed, ...keyedHits, ...keyedHits]);
    await one.close();
    await two.close();
  });

  it('replays a window of keyed requests once after a crash between its claim and its counters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-ingest-log-'));
    const faults = new Faults();
    const crashing = await open(faultyDatabase(database, faults), dir);
    const keyed = inputs('keyed-replay.example', 14);
    const unkeyed = await record(crashing, 'keyed-replay.example', 6);
    const first = await crashing.ingest.recordHits(keyed, { idempotencyKey: 'replayed' });
    // The claim (write 1) goes through, the daily documents' write (2) is applied but its reply lost, then the
    // monthly one (3) is refused: close() tries once and leaves the window in the log.
    faults.failNth(2, 'after');
    faults.failNth(3, 'before');
    await crashing.close();
    const partial = await storedCounters(database.db, 'keyed-replay.example');
    expect(partial.size).toBeGreaterThan(0);

    const restarted = await open(database, dir);
    // Before the replayed window is written, a retry is answered from the replayed log.
    expect(await restarted.ingest.recordHits(keyed, { idempotencyKey: 'replayed' })).toEqual(first);
    await restarted.drain();
    expect(await restarted.ingest.recordHits(keyed, { idempotencyKey: 'replayed' })).toEqual(first);
    await restarted.drain();
    const keyedHits = await Promise.all(keyed.map((input) => restarted.ingest.recordHit(input)));
    await restarted.drain();
    await expectExactly('keyed-replay.example', [...unkeyed, ...keyedHits, ...keyedHits]);
    await restarted.close();
  });

  it('skips a replayed window that was written before its checkpoint was saved', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-ingest-log-'));
    const pipeline = await open(database, dir);
    // The window lasts 60 s: the hits are durable and their window not written when the log is copied.
    const hits = await record(pipeline, 'lagging.example', 18);
    const restarted = await replayWrittenWindow(
      pipeline,
      dir,
      (again) => open(database, again),
      () => expectExactly('lagging.example', hits),
    );
    // Later hits go on under the next window numbers.
    const more = await record(restarted, 'lagging.example', 5);
    await restarted.drain();
    await expectExactly('lagging.example', [...hits, ...more]);
    await restarted.close();
  });
});
