/**
 * Exactly-once ingest (issue 9) against the real server, with a fault-injecting wrapper that fails the Nth write
 * command of a flush — refused before it is applied, or applied with its reply lost — then retries: every
 * collection must hold each keyed request exactly once, at every granularity (site totals included), its dimension
 * counters too, and its visitors' sketches exactly as one write leaves them (issues 19, 20). The pipeline is the
 * production one (openHitPipeline) at the production defaults, in each setup of exactlyOnceStack's SETUPS.
 */
import { IdempotencyKeyInProgressError } from '../../src/errors/IdempotencyKeyInProgressError';
import { IdempotencyKeyReusedError } from '../../src/errors/IdempotencyKeyReusedError';
import type { Binary } from 'mongodb';
import type { Hit, HitInputFields } from '../../src/domain/Hit';
import { visitorHash } from '../../src/domain/visitors/visitorHash';
import { VISITOR_SECRET_COLLECTION } from '../../src/store/visitorSecret';
import type { TestDatabase } from '../support/testDatabase';
import { connectSetupDatabase, exactlyOnceStack, LEASE_MS, SETUPS } from '../support/exactlyOnceStack';
import type { Setup } from '../support/exactlyOnceStack';
import {
  collectionTotals,
  expectedCounters,
  expectedSketches,
  MARKER_DIMENSIONS,
  storedCounters,
  storedSketches,
} from '../support/storedCounters';

const NOW = Date.parse('2026-03-10T12:30:00Z');

function batch(site: string): HitInputFields[] {
  return [
    { site, page: '/a', at: new Date(NOW - 61_000), count: 2, visitor: 'alice' },
    { site, page: '/b', at: new Date(NOW - 3_600_000), count: 1, visitor: 'bob', dimensions: { country: 'DE' } },
    { site, page: '/a', at: new Date(NOW - 86_400_000), count: 5, visitor: 'alice' },
  ];
}

/** The hits as counted; visitors keyed with the database's secret (read back only to compute the expectation). */
const asHits = (inputs: HitInputFields[], secret?: Uint8Array): Hit[] =>
  inputs.map((h) => ({
    site: h.site,
    page: h.page,
    at: h.at?.getTime() ?? NOW,
    count: h.count ?? 1,
    visitor: h.visitor == null || secret === undefined ? undefined : visitorHash(secret, h.visitor),
    dimensions: h.dimensions?.country ? { ...MARKER_DIMENSIONS, country: h.dimensions.country } : undefined,
  }));
/** What the collections hold for `inputs` counted once, with site totals (on by default). */
const expected = (inputs: HitInputFields[]) => expectedCounters(asHits(inputs), { siteTotals: true });

async function secretOf(database: TestDatabase): Promise<Uint8Array> {
  const stored = await database.db.collection(VISITOR_SECRET_COLLECTION).findOne({});
  return new Uint8Array((stored?.key as Binary).value());
}

/** The stored sketches equal those of `inputs`' visitors, each written once. */
async function expectSketchesOf(database: TestDatabase, site: string, inputs: HitInputFields[]): Promise<void> {
  const hits = asHits(inputs, await secretOf(database));
  expect(await storedSketches(database.db, site)).toEqual(expectedSketches(hits, { siteTotals: true }));
}

// A keyed flush of this batch sends 5 write commands: the ledger insert, then daily, monthly, seconds and the page
// rollups.
const WRITES_PER_KEYED_FLUSH = 5;

/** Flushes in flight in each setup: INGEST_FLUSH_CONCURRENCY's default (4), or one where one writer is required. */
const FLUSHES_IN_FLIGHT: Record<Setup, (database: TestDatabase) => number> = {
  'production defaults': (database) => (database.engine.requiresSingleWriter ? 1 : 4),
  'four flushes in flight': () => 4,
  'one connection': () => 1,
};

describe.each(SETUPS)('with %s', (setup) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await connectSetupDatabase(`exactlyOnce_${setup}`, setup);
  });

  afterAll(async () => {
    await database.dropAndClose();
  });

  describe('a keyed flush failing at its Nth write command', () => {
    const cases = [];
    for (let n = 1; n <= WRITES_PER_KEYED_FLUSH; n++)
      for (const mode of ['before', 'after'] as const) cases.push({ n, mode });

    it.each(cases)('is counted exactly once after retrying (write $n fails $mode)', async ({ n, mode }) => {
      const clock = { now: NOW };
      const stack = await exactlyOnceStack(database, clock);
      const site = `fail${n}${mode}`;
      stack.faults.failNth(n, mode);
      await expect(stack.ingest.recordHits(batch(site), { idempotencyKey: `k-${site}` })).rejects.toThrow(
        /injected|the database is unavailable/,
      );
      // The other collections may hold part of it now; an unkeyed request in the same state would stay partial.
      // Writes 2–4 go out together, so a lost reply there leaves all three applied and the retry finds them
      // complete. A lost reply of the ledger insert (1) leaves the attempt unknown: nothing written, key taken.
      if (mode === 'after' && n === 1) {
        // The lost reply leaves the attempt possibly in flight: a retry within the lease is told to wait...
        await expect(stack.ingest.recordHits(batch(site), { idempotencyKey: `k-${site}` })).rejects.toBeInstanceOf(
          IdempotencyKeyInProgressError,
        );
        clock.now += LEASE_MS + 1;
      }
      // ...and once the first attempt is known dead, the retry writes only what is missing.
      await expect(stack.ingest.recordHits(batch(site), { idempotencyKey: `k-${site}` })).resolves.toEqual({
        accepted: 3,
        total: 8,
      });
      await expect(stack.ingest.recordHits(batch(site), { idempotencyKey: `k-${site}` })).resolves.toEqual({
        accepted: 3,
        total: 8,
      });
      const stored = await storedCounters(database.db, site);
      expect(stored).toEqual(expected(batch(site)));
      expect(collectionTotals(stored)).toEqual({ daily: 8, monthly: 8, seconds: 8 });
      await expectSketchesOf(database, site, batch(site));
    });

    it('survives a failing re-drive too', async () => {
      const clock = { now: NOW };
      const stack = await exactlyOnceStack(database, clock);
      const site = 'redrive';
      // The daily write is refused; monthly and seconds are applied.
      stack.faults.failNth(2, 'before');
      await expect(stack.ingest.recordHits(batch(site), { idempotencyKey: `k-${site}` })).rejects.toThrow(
        /injected|the database is unavailable/,
      );
      // The retry takes the entry over (write 1) and re-drives: its daily write (2) is refused again.
      stack.faults.failNth(2, 'before');
      await expect(stack.ingest.recordHits(batch(site), { idempotencyKey: `k-${site}` })).rejects.toThrow(
        /injected|the database is unavailable/,
      );
      // The third attempt is guarded by both earlier ones: it adds the days and nothing else.
      await stack.ingest.recordHits(batch(site), { idempotencyKey: `k-${site}` });
      expect(await storedCounters(database.db, site)).toEqual(expected(batch(site)));
      await expectSketchesOf(database, site, batch(site));
    });
  });

  it('leaves the visitor sketches of an unkeyed request sent twice as one send leaves them, counting its hits twice', async () => {
    const stack = await exactlyOnceStack(database, { now: NOW });
    const site = 'unkeyedTwice';
    await stack.ingest.recordHits(batch(site));
    await stack.ingest.recordHits(batch(site));
    expect(collectionTotals(await storedCounters(database.db, site))).toEqual({ daily: 16, monthly: 16, seconds: 16 });
    await expectSketchesOf(database, site, batch(site));
  });

  it('has as many flushes in flight as the setup allows, and counts each keyed request once', async () => {
    const stack = await exactlyOnceStack(database, { now: NOW });
    const sites = Array.from({ length: 6 }, (_, i) => `inFlight${i}`);
    stack.faults.hold();
    const sends = sites.map((site) => stack.ingest.recordHits(batch(site), { idempotencyKey: `k-${site}` }));
    // Let every submission reach the committer; a flush's first write is its ledger insert, held at the gate.
    await new Promise(setImmediate);
    expect(stack.faults.held).toBe(FLUSHES_IN_FLIGHT[setup](database));
    stack.faults.release();
    await expect(Promise.all(sends)).resolves.toEqual(sites.map(() => ({ accepted: 3, total: 8 })));
    for (const site of sites) expect(await storedCounters(database.db, site)).toEqual(expected(batch(site)));
  });

  describe('idempotency keys', () => {
    it('returns the original result to a retry, with the original arrival time for a hit without at', async () => {
      const clock = { now: NOW };
      const stack = await exactlyOnceStack(database, clock);
      const first = await stack.ingest.recordHit({ site: 'stamp', page: '/' }, { idempotencyKey: 'beacon-1' });
      clock.now += 90_000;
      const retry = await stack.ingest.recordHit({ site: 'stamp', page: '/' }, { idempotencyKey: 'beacon-1' });
      expect(retry).toEqual(first);
      expect(first.at).toBe(NOW);
      expect(collectionTotals(await storedCounters(database.db, 'stamp'))).toEqual({
        daily: 1,
        monthly: 1,
        seconds: 1,
      });
    });

    it('rejects the same key with a different payload, and writes nothing for it', async () => {
      const stack = await exactlyOnceStack(database, { now: NOW });
      await stack.ingest.recordHits(batch('reuse'), { idempotencyKey: 'r' });
      const other = batch('reuse').map((h) => ({ ...h, count: 7 }));
      const error = await stack.ingest.recordHits(other, { idempotencyKey: 'r' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdempotencyKeyReusedError);
      expect((error as Error).message).toBe(
        'idempotencyKey was already used for a different request: a retry must repeat the original hits exactly (same site, page, at and count, in the same order); use a new key for new hits',
      );
      expect(collectionTotals(await storedCounters(database.db, 'reuse'))).toEqual({
        daily: 8,
        monthly: 8,
        seconds: 8,
      });
    });

    it('treats the same key from recordHit and recordHits as different payloads', async () => {
      const stack = await exactlyOnceStack(database, { now: NOW });
      const hit = { site: 'kinds', page: '/', at: new Date(NOW) };
      await stack.ingest.recordHit(hit, { idempotencyKey: 'x' });
      await expect(stack.ingest.recordHits([hit], { idempotencyKey: 'x' })).rejects.toBeInstanceOf(
        IdempotencyKeyReusedError,
      );
    });

    it('keeps scopes apart: the same key in two scopes is two requests', async () => {
      const stack = await exactlyOnceStack(database, { now: NOW });
      const hit = { site: 'scopes', page: '/', at: new Date(NOW) };
      await stack.ingest.recordHit(hit, { idempotencyKey: 'same', idempotencyScope: 'a' });
      await stack.ingest.recordHit(hit, { idempotencyKey: 'same', idempotencyScope: 'b' });
      expect(collectionTotals(await storedCounters(database.db, 'scopes')).daily).toBe(2);
    });

    it('counts concurrent duplicates in one process once, and answers all of them', async () => {
      const stack = await exactlyOnceStack(database, { now: NOW });
      const results = await Promise.all(
        Array.from({ length: 10 }, () => stack.ingest.recordHits(batch('joined'), { idempotencyKey: 'j' })),
      );
      expect(new Set(results.map((r) => JSON.stringify(r)))).toEqual(
        new Set([JSON.stringify({ accepted: 3, total: 8 })]),
      );
      expect(collectionTotals(await storedCounters(database.db, 'joined')).daily).toBe(8);
    });

    it('counts concurrent duplicates sent to two processes once: the loser waits for the winner', async () => {
      const clock = { now: NOW };
      const one = await exactlyOnceStack(database, clock, { waitMs: 10_000 });
      const two = await exactlyOnceStack(database, clock, { waitMs: 10_000 });
      for (let i = 0; i < 5; i++) {
        const key = `two-${i}`;
        const results = await Promise.all([
          one.ingest.recordHits(batch('twoStacks'), { idempotencyKey: key }),
          two.ingest.recordHits(batch('twoStacks'), { idempotencyKey: key }),
        ]);
        expect(results).toEqual([
          { accepted: 3, total: 8 },
          { accepted: 3, total: 8 },
        ]);
      }
      expect(collectionTotals(await storedCounters(database.db, 'twoStacks'))).toEqual({
        daily: 40,
        monthly: 40,
        seconds: 40,
      });
    });

    it('costs one more write command per flush (the ledger insert) and nothing more when nothing is retried', async () => {
      const stack = await exactlyOnceStack(database, { now: NOW });
      const before = stack.faults.writes;
      await stack.ingest.recordHits(batch('costPlain'));
      const plain = stack.faults.writes - before;
      await stack.ingest.recordHits(batch('costKeyed'), { idempotencyKey: 'cost' });
      expect([plain, stack.faults.writes - before - plain]).toEqual([4, 5]);
    });

    it('rejects an empty, too long or control-character key before writing anything', async () => {
      const stack = await exactlyOnceStack(database, { now: NOW });
      // Opening the pipeline wrote the database's visitor secret (once); nothing is written from here on.
      const opened = stack.faults.writes;
      await expect(stack.ingest.recordHits(batch('badKey'), { idempotencyKey: '' })).rejects.toThrow(
        'idempotencyKey must be 1–255 characters without control characters, got ""',
      );
      await expect(stack.ingest.recordHits(batch('badKey'), { idempotencyKey: 'a\nb' })).rejects.toThrow(
        'idempotencyKey must be 1–255 characters without control characters, got "a\\nb"',
      );
      expect(stack.faults.writes).toBe(opened);
    });
  });
});
