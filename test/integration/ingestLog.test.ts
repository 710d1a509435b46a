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

  it('counts keyed requests once beside the windows: retried keys answer the original result, nothing twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-ingest-log-'));
    const pipeline = await open(database, dir);
    const keyed = inputs('keyed.example', 12);
    const unkeyed = await record(pipeline, 'keyed.example', 9);
    // The same key three times, two of them at once: the database path, taking turns with the log's windows.
    const first = await pipeline.ingest.recordHits(keyed, { idempotencyKey: 'batch-1' });
    const retries = await Promise.all([
      pipeline.ingest.recordHits(keyed, { idempotencyKey: 'batch-1' }),
      pipeline.ingest.recordHits(keyed, { idempotencyKey: 'batch-1' }),
    ]);
    expect(retries).toEqual([first, first]);
    const more = await record(pipeline, 'keyed.example', 5);
    await pipeline.drain();
    const keyedHits = await Promise.all(keyed.map((input) => pipeline.ingest.recordHit(input)));
    await pipeline.drain();
    // keyedHits were recorded once more, unkeyed, to learn their derived fields: the batch counts twice, not thrice.
    await expectExactly('keyed.example', [...unkeyed, ...more, ...keyedHits, ...keyedHits]);
    await pipeline.close();
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
