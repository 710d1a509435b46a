/**
 * openHitPipeline, the one wiring of hit ingest (server, `tally import --mongodb-uri`, exactly-once tests), against
 * the real server: what it counts under each setting, which periodic jobs it hands its caller, and that the
 * database stays the caller's.
 */
import { Binary } from 'mongodb';
import type { Document } from 'mongodb';
import { loadConfig } from '../../src/config/loadConfig';
import type { Hit, HitInputFields } from '../../src/domain/Hit';
import { openHitPipeline } from '../../src/ingest/openHitPipeline';
import type { HitPipeline } from '../../src/ingest/openHitPipeline';
import { createLogger } from '../../src/logging/createLogger';
import { visitorHash } from '../../src/domain/visitors/visitorHash';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { SECONDS_COLLECTION } from '../../src/store/secondStats';
import { VISITOR_SALTS_COLLECTION } from '../../src/store/VisitorSaltStore';
import { VISITOR_SECRET_COLLECTION } from '../../src/store/visitorSecret';
import { expectedCounters, storedCounters } from '../support/storedCounters';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const NOW = Date.parse('2026-03-10T12:30:00Z');
const logger = createLogger({ level: 'silent', nodeEnv: 'test' });
let database: TestDatabase;

beforeAll(async () => {
  database = await connectTestDatabase('openHitPipeline');
});

afterAll(async () => {
  await database.dropAndClose();
});

function open(env: Record<string, string> = {}): Promise<HitPipeline> {
  return openHitPipeline(database, loadConfig({ NODE_ENV: 'test', ...env }), { clock: () => NOW, logger });
}

const inputs = (site: string): HitInputFields[] => [
  { site, page: '/a', at: new Date(NOW - 2_000), count: 2 },
  { site, page: '/b', at: new Date(NOW - 3_600_000), count: 1 },
];
const asHits = (site: string): Hit[] =>
  inputs(site).map((h) => ({ site, page: h.page, at: (h.at as Date).getTime(), count: h.count ?? 1 }));

describe('openHitPipeline', () => {
  it('counts site totals and second-level counters by default', async () => {
    const pipeline = await open();
    await pipeline.ingest.recordHits(inputs('defaults'));
    expect(await storedCounters(database.db, 'defaults')).toEqual(
      expectedCounters(asHits('defaults'), { siteTotals: true }),
    );
  });

  it('counts neither when SITE_TOTALS_ENABLED and SECONDS_ENABLED are off', async () => {
    const pipeline = await open({ SITE_TOTALS_ENABLED: 'false', SECONDS_ENABLED: 'false' });
    await pipeline.ingest.recordHits(inputs('plain'));
    const stored = await storedCounters(database.db, 'plain');
    const withoutSeconds = [...expectedCounters(asHits('plain'))].filter(
      ([path]) => !path.startsWith(SECONDS_COLLECTION),
    );
    expect(stored).toEqual(new Map(withoutSeconds));
  });

  it('hands over an expiry sweep for each expiring collection exactly where the write policy sweeps, and the compaction of past periods', async () => {
    const sweeps = (pipeline: HitPipeline) => pipeline.jobs.sweeps.map((sweep) => sweep.what);
    const swept = database.policy.expiry === 'sweep';
    // Salts of past periods are deleted by a sweep on every engine: no TTL index knows when a period is over.
    const salts = 'visitor salts of past periods';
    // So is the compaction of past periods' sketches and dimension counters.
    const sketches = 'sketches and dimension counters of past periods (compaction)';
    // Visit sessions (issue 29) expire by a TTL index where there are TTL indexes, else by a sweep.
    expect(sweeps(await open())).toEqual(
      swept ? [salts, 'second-level documents', sketches, 'idempotency keys', 'visit sessions'] : [salts, sketches],
    );
    expect(sweeps(await open({ SECONDS_ENABLED: 'false' }))).toEqual(
      swept ? [salts, sketches, 'idempotency keys', 'visit sessions'] : [salts, sketches],
    );
    expect(sweeps(await open({ VISITS_ENABLED: 'false' }))).toEqual(
      swept ? [salts, 'second-level documents', sketches, 'idempotency keys'] : [salts, sketches],
    );
  });

  it('counts no dimensions when DIMENSIONS_ENABLED is off', async () => {
    const pipeline = await open({ DIMENSIONS_ENABLED: 'false' });
    await pipeline.ingest.recordHits(inputs('noDimensions').map((input) => ({ ...input, userAgent: 'Mozilla/5.0' })));
    expect(await storedCounters(database.db, 'noDimensions')).toEqual(
      expectedCounters(asHits('noDimensions'), { siteTotals: true, dimensions: false }),
    );
  });

  it('keys visitors with the one secret of the database, whichever pipeline opened first', async () => {
    const [one, two] = await Promise.all([open(), open()]);
    await one.ingest.recordHit({ site: 'secret', page: '/', at: new Date(NOW), visitor: 'v' });
    await two.ingest.recordHit({ site: 'secret', page: '/', at: new Date(NOW), visitor: 'v' });
    const secrets = await database.db.collection(VISITOR_SECRET_COLLECTION).find().toArray();
    expect(secrets).toHaveLength(1);
    const key = new Uint8Array((secrets[0]?.key as Binary).value());
    const stored = await database.db.collection(DAILY_COLLECTION).findOne({ _id: '20260310/secret/' } as Document);
    expect(stored?.v).toEqual(VisitorSketch.empty(11).add(visitorHash(key, 'v')).toStoredFields());
  });

  it('deletes the salts of past periods when it opens', async () => {
    const salts = database.db.collection(VISITOR_SALTS_COLLECTION);
    await salts.insertOne({
      _id: 'day:2026-03-09',
      salt: new Binary(Buffer.from([1])),
      createdAt: new Date(NOW),
    } as Document);
    await open();
    expect(await salts.countDocuments({ _id: 'day:2026-03-09' } as Document)).toBe(0);
  });

  it('hands over a preallocation job for each kind switched on, and none by default', async () => {
    const preallocations = (pipeline: HitPipeline) => pipeline.jobs.preallocations.map((job) => job.what);
    expect(preallocations(await open())).toEqual([]);
    expect(preallocations(await open({ PREALLOCATE: 'true' }))).toEqual([
      'tomorrow',
      "next hour's second-level minutes",
    ]);
    expect(preallocations(await open({ PREALLOCATE: 'true', SECONDS_PREALLOCATE: 'false' }))).toEqual(['tomorrow']);
  });

  it('writes what is pending on close and leaves the database open', async () => {
    const pipeline = await open({ INGEST_FLUSH_INTERVAL_MS: '10000' });
    // Unkeyed single hits wait for the group-commit window while a flush is in flight: these two ride together.
    const sent = Promise.all(inputs('closing').map((input) => pipeline.ingest.recordHit(input)));
    await pipeline.close();
    await sent;
    expect(await database.ping()).toBe(true);
    expect(await storedCounters(database.db, 'closing')).toEqual(
      expectedCounters(asHits('closing'), { siteTotals: true }),
    );
  });
});
