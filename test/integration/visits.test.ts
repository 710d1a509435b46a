/**
 * Visits (issue 29) against the real server: the visit counters the pipeline writes (per hour, per day, and per
 * minute in the minute documents the live series reads) equal an independent sessionisation of the same hits
 * (test/support/sessionise.ts), in database mode and through the ingest log, after a
 * crash that tore a window's counter writes (the sessions were written, the counters not: the replay recomputes the
 * changes from each session's outbox), after a crash before the checkpoint (the window written twice), and with two
 * pipelines (two instances) advancing the same visits in turn, each with its own cache of session states, and when
 * a keyed request's flush fails at any of its write commands and a retry re-drives it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Binary, BSON } from 'mongodb';
import type { Document } from 'mongodb';
import { loadConfig } from '../../src/config/loadConfig';
import type { HitInputFields } from '../../src/domain/Hit';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { openHitPipeline } from '../../src/ingest/openHitPipeline';
import type { HitPipeline } from '../../src/ingest/openHitPipeline';
import { createLogger } from '../../src/logging/createLogger';
import type { Database } from '../../src/store/connectDatabase';
import { dailyDocumentId } from '../../src/store/dailyStats';
import { monthlyDocumentId } from '../../src/store/monthlyStats';
import { VISIT_SESSIONS_COLLECTION, VisitSessionStore, writeVersion } from '../../src/store/visitSessions';
import { SitePageScan } from '../../src/store/SitePageScan';
import { TopPagesQuery } from '../../src/query/TopPagesQuery';
import { TopPagesOrder } from '../../src/query/TopPagesOrder';
import { exactlyOnceStack, LEASE_MS } from '../support/exactlyOnceStack';
import { Faults, faultyDatabase } from '../support/faultyDatabase';
import { replayWrittenWindow } from '../support/replayWrittenWindow';
import { readableJson } from '../support/readableJson';
import { sessionise } from '../support/sessionise';
import type { OracleCounts, OracleHit } from '../support/sessionise';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const NOW = Date.parse('2026-03-31T20:00:00Z');
const DAY = Date.parse('2026-03-31T00:00:00Z');
const MONTH = Date.parse('2026-03-01T00:00:00Z');
const TIMEOUT_MS = 30 * 60_000;
const logger = createLogger({ level: (process.env.TEST_LOG ?? 'silent') as 'silent', nodeEnv: 'test' });
let database: TestDatabase;

beforeAll(async () => {
  database = await connectTestDatabase('visits');
});

afterAll(async () => {
  await database.dropAndClose();
});

function open(db: Database, dir?: string): Promise<HitPipeline> {
  return openHitPipeline(db, loadConfig({ NODE_ENV: 'test' }), {
    clock: () => NOW,
    logger,
    ...(dir ? { ingestLog: { dir, windowMs: 60_000 } } : {}),
  });
}

/** Hits in time order over the morning: repeat visitors, gaps under and over the timeout, events, bounces. */
function traffic(site: string): OracleHit[] {
  const hits: OracleHit[] = [];
  let at = DAY + 60_000;
  for (let i = 0; i < 66; i++) {
    at += [7_000, 95_000, 40 * 60_000, 3_000, 12 * 60_000, 31 * 60_000, 2 * 60_000][i % 7] as number;
    // Two visitors at a time, alternating, three hits each: gaps under and over the timeout.
    const visitor = `person-${Math.floor(i / 6) % 3}-${i % 2}`;
    hits.push({ site, page: `/p${(i * 5) % 4}`, at, visitor, ...(i % 9 === 4 ? { event: 'Signup' } : {}) });
  }
  return hits;
}

function input(hit: OracleHit): HitInputFields {
  return {
    site: hit.site,
    page: hit.page,
    at: new Date(hit.at),
    visitor: hit.visitor,
    ...(hit.event ? { event: hit.event } : {}),
  };
}

/**
 * The stored visit counters of the site (key '') and each page, summed over the day's hours, the month's days and
 * the day's minute documents (`vm`, the live series': every hit here is inside the second-level retention).
 */
async function stored(
  site: string,
  pages: readonly string[],
): Promise<{
  hourly: Map<string, OracleCounts>;
  daily: Map<string, OracleCounts>;
  minutes: Map<string, OracleCounts>;
}> {
  const hourly = new Map<string, OracleCounts>();
  const daily = new Map<string, OracleCounts>();
  const minutes = new Map<string, OracleCounts>();
  for (const page of ['', ...pages]) {
    const stored = page === '' ? SITE_TOTAL_PAGE : page;
    const day = await database.db
      .collection('stats.daily')
      .findOne({ _id: dailyDocumentId(site, stored, DAY) as never });
    const month = await database.db
      .collection('stats.monthly')
      .findOne({ _id: monthlyDocumentId(site, stored, MONTH) as never });
    hourly.set(page, sum(Object.values((day?.vh ?? {}) as Record<string, Document>), page === ''));
    daily.set(page, sum(Object.values((month?.vd ?? {}) as Record<string, Document>), page === ''));
    const minuteDocuments = await database.db
      .collection('stats.seconds')
      .find({ 'metadata.site': site, 'metadata.page': stored }, { projection: { vm: 1 } })
      .toArray();
    minutes.set(
      page,
      sum(
        minuteDocuments.map((doc) => (doc.vm ?? {}) as Document),
        page === '',
      ),
    );
  }
  return { hourly, daily, minutes };
}

function sum(periods: readonly Document[], site: boolean): OracleCounts {
  const total: OracleCounts = { visits: 0, bounces: 0, seconds: 0, pageviews: 0, entries: 0, exits: 0 };
  for (const period of periods) {
    total.visits += Number(period.v ?? 0);
    total.bounces += Number(period.b ?? 0);
    total.seconds += Number(period.s ?? 0);
    total.pageviews += Number(period.p ?? 0);
    total.entries += site ? 0 : Number(period.e ?? 0);
    total.exits += site ? 0 : Number(period.x ?? 0);
  }
  return total;
}

async function expectSessionised(site: string, hits: readonly OracleHit[]): Promise<void> {
  const expected = sessionise(hits, TIMEOUT_MS);
  const pages = [...expected.keys()].filter((page) => page !== '');
  const { hourly, daily, minutes } = await stored(site, pages);
  for (const page of ['', ...pages]) {
    expect({ page, ...hourly.get(page) }).toEqual({ page, ...expected.get(page) });
    expect({ page, ...daily.get(page) }).toEqual({ page, ...expected.get(page) });
    // Minute documents keep no exits (nothing reads them per minute).
    expect({ page, ...minutes.get(page) }).toEqual({ page, ...expected.get(page), exits: 0 });
  }
}

describe('visits', () => {
  it('counts what an independent sessionisation counts, flush after flush (INGEST_ACK=database)', async () => {
    const site = 'database.example';
    const hits = traffic(site);
    const pipeline = await open(database);
    for (const [i, hit] of hits.entries()) {
      await pipeline.ingest.recordHit(input(hit));
      // Several flushes: visits continue across them from the stored (and cached) sessions.
      if (i % 10 === 9) await pipeline.drain();
    }
    await pipeline.drain();
    await expectSessionised(site, hits);
    expect(sessionise(hits, TIMEOUT_MS).get('')?.bounces).toBeGreaterThan(0);
    await pipeline.close();

    // Entry and exit pages: topPages ranks by the same counters.
    const expected = sessionise(hits, TIMEOUT_MS);
    const query = new TopPagesQuery(new SitePageScan(database), { maxPageSize: 100, maxDays: 400 });
    const range = { site, from: new Date(DAY), to: new Date(DAY + 86_400_000), first: 100 };
    for (const [by, field] of [
      [TopPagesOrder.ENTRIES, 'entries'],
      [TopPagesOrder.EXITS, 'exits'],
    ] as const) {
      const ranked = await query.topPages({ ...range, by });
      const want = [...expected]
        .filter(([page, counts]) => page !== '' && counts[field] > 0)
        .map(([page, counts]) => ({ page, hits: counts[field] }))
        .sort((a, b) => b.hits - a.hits || (a.page < b.page ? -1 : 1));
      expect(ranked.edges.map(({ node }) => ({ page: node.page, hits: node.hits }))).toEqual(want);
    }
    await expect(query.topPages({ ...range, by: TopPagesOrder.ENTRIES, timeZone: 'Asia/Kolkata' })).rejects.toThrow(
      'kept per UTC hour',
    );
  });

  it("gives one process's figures with two processes advancing the same visits in turn", async () => {
    const site = 'two.example';
    const hits = traffic(site);
    const first = await open(database);
    const second = await open(database);
    for (const [i, hit] of hits.entries()) {
      const pipeline = i % 3 === 0 ? first : second;
      await pipeline.ingest.recordHit(input(hit));
      await pipeline.drain();
    }
    await expectSessionised(site, hits);
    await first.close();
    await second.close();
  });

  it('forgets the sessions it wrote once the timeout has passed, and still counts what a sessionisation counts', async () => {
    const site = 'forgetful.example';
    // Pageviews only: an event alone starts no visit, so it would leave no session to remember.
    const hits = traffic(site).filter((hit) => hit.event === undefined);
    // The process's clock follows the traffic, whose gaps pass the timeout now and then.
    const clock = { now: NOW };
    const pipeline = await openHitPipeline(database, loadConfig({ NODE_ENV: 'test' }), {
      clock: () => clock.now,
      logger,
    });
    const lastWritten = new Map<string, number>();
    let forgotten = 0;
    for (const hit of hits) {
      clock.now = hit.at + 1_000;
      await pipeline.ingest.recordHit(input(hit));
      await pipeline.drain();
      lastWritten.set(hit.visitor as string, clock.now);
      const remembered = [...lastWritten.values()].filter((at) => at >= clock.now - TIMEOUT_MS).length;
      forgotten = Math.max(forgotten, lastWritten.size - remembered);
      expect(pipeline.visitSessionsCached()).toBe(remembered);
    }
    // Some sessions were forgotten and met again: their writes read the stored state back and advanced it once.
    expect(forgotten).toBeGreaterThan(0);
    await expectSessionised(site, hits);
    await pipeline.close();
  });

  it.each([
    ['the daily counters refused', 1],
    ['the monthly counters refused', 2],
    ['the minute documents refused', 3],
  ])('through the ingest log, a crash with %s replays to each visit counted once', async (_label, failing) => {
    const site = `torn${failing}.example`;
    const dir = mkdtempSync(join(tmpdir(), 'tally-visits-'));
    const faults = new Faults();
    const crashing = await open(faultyDatabase(database, faults), dir);
    const hits = traffic(site);
    const firstHalf = hits.slice(0, 25);
    for (const hit of firstHalf) await crashing.ingest.recordHit(input(hit));
    await crashing.drain();
    for (const hit of hits.slice(25)) await crashing.ingest.recordHit(input(hit));
    // The window's sessions are written, then one of its counter writes is refused, and the process stops.
    faults.failNth(failing, 'before');
    await crashing.close();
    expect(faults.pending).toBe(false);
    await expect(expectSessionised(site, hits)).rejects.toThrow();

    const restarted = await open(database, dir);
    await restarted.drain();
    await expectSessionised(site, hits);
    await restarted.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const failures = [1, 2, 3, 4, 5].flatMap((n) => (['before', 'after'] as const).map((mode) => ({ n, mode })));
  it.each(failures)(
    'counts each visit once when a keyed flush fails at its write $n ($mode) and a retry re-drives it',
    async ({ n, mode }) => {
      const site = `redrive-${n}-${mode}.example`;
      const hits = traffic(site);
      const clock = { now: NOW };
      const stack = await exactlyOnceStack(database, clock, { visits: true });
      const send = (hit: OracleHit, i: number) =>
        stack.ingest.recordHits([input(hit)], { idempotencyKey: `${site}-${i}` });
      for (const [i, hit] of hits.entries()) {
        if (i !== 30) {
          await send(hit, i);
          continue;
        }
        // The ledger's claim, the sessions' write and the counters' writes (daily, monthly, minute documents): one of
        // them fails.
        stack.faults.failNth(n, mode);
        await send(hit, i).catch(() => undefined);
        stack.faults.clear();
        // An attempt whose outcome is unknown owns its key until its lease runs out; then the retry re-drives it.
        clock.now += LEASE_MS + 1;
        await send(hit, i);
        await send(hit, i);
      }
      await expectSessionised(site, hits);
    },
  );

  it('costs a minute document at most 44 BSON bytes: `vm` with five 32-bit counters', async () => {
    // The minute documents the first test wrote ('database.example'), as stored.
    const documents = await database.db
      .collection('stats.seconds')
      .find({ 'metadata.site': 'database.example', vm: { $exists: true } })
      .toArray();
    expect(documents.length).toBeGreaterThan(0);
    const extra = documents.map((doc) => {
      const { vm, ...without } = doc;
      expect(Object.values(vm as Document).every((value) => Number.isInteger(value))).toBe(true);
      return BSON.calculateObjectSize(doc) - BSON.calculateObjectSize(without);
    });
    // Element header (1) + "vm\0" (3) + sub-document length (4) + terminator (1), then per field 1 + 2 + 4.
    expect(Math.max(...extra)).toBeLessThanOrEqual(9 + 5 * 7);
    expect(Math.min(...extra)).toBeGreaterThanOrEqual(9 + 7);
  });

  it('writes a window of more sessions than one bulk write takes, in chunks, and loses none to another process', async () => {
    const site = 'crowd.example';
    const visitors = 2_600; // Two chunks of session writes (2,000 and 600), ids spread over both by their hash.
    const hitOf = (v: number, minute: number): OracleHit => ({
      site,
      page: `/p${v % 3}`,
      at: DAY + 60_000 * minute + v,
      visitor: `crowd-${v}`,
    });
    const dir = mkdtempSync(join(tmpdir(), 'tally-visits-'));
    const first = await open(database, dir);
    const second = await open(database);
    const hits: OracleHit[] = [];
    const send = async (pipeline: HitPipeline, batch: OracleHit[]) => {
      hits.push(...batch);
      for (let i = 0; i < batch.length; i += 500) {
        await pipeline.ingest.recordHits(batch.slice(i, i + 500).map(input));
      }
      await pipeline.drain();
    };
    await send(
      first,
      Array.from({ length: visitors }, (_, v) => hitOf(v, 0)),
    );
    // Another process advances every 20th visit: the first process's cached states of those are stale, so their
    // writes lose in whichever chunk holds them, are read back and computed again.
    await send(
      second,
      Array.from({ length: visitors / 20 }, (_, i) => hitOf(i * 20, 5)),
    );
    await send(
      first,
      Array.from({ length: visitors }, (_, v) => hitOf(v, 10)),
    );
    await expectSessionised(site, hits);
    await first.close();
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('through the ingest log, a window written twice (a crash before the checkpoint) counts once', async () => {
    const site = 'lagging.example';
    const dir = mkdtempSync(join(tmpdir(), 'tally-visits-'));
    const pipeline = await open(database, dir);
    const hits = traffic(site);
    for (const hit of hits) await pipeline.ingest.recordHit(input(hit));
    const restarted = await replayWrittenWindow(
      pipeline,
      dir,
      (again) => open(database, again),
      () => expectSessionised(site, hits),
    );
    await restarted.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('expires sessions after the timeout: the sweep (or TTL index) deletes only expired ones', async () => {
    const store = new VisitSessionStore(database, { keepMs: TIMEOUT_MS });
    await store.ensureIndexes();
    const state = { start: NOW, last: NOW, entry: '/a', exit: '/a', views: 1, bounced: true, seen: [1] };
    const lane = { lane: 'sweep-test', seq: 1 };
    await store.write(
      [{ id: 'old-session', expected: undefined, state, before: undefined }],
      undefined,
      writeVersion(lane),
      NOW - 2 * TIMEOUT_MS,
    );
    await store.write(
      [{ id: 'new-session', expected: undefined, state, before: undefined }],
      undefined,
      writeVersion(lane),
      NOW,
    );
    await store.sweep(NOW);
    const left = await store.read(['old-session', 'new-session']);
    expect([...left.keys()]).toEqual(['new-session']);
    // A write that expected another version loses, and leaves the stored one.
    const lost = await store.write(
      [{ id: 'new-session', expected: 'someone:else', state, before: undefined }],
      undefined,
      'x:1',
      NOW,
    );
    expect([...lost]).toEqual(['new-session']);
    expect((await store.read(['new-session'])).get('new-session')?.version).toBe(writeVersion(lane));
  });

  it('reads a state stored as a tree or as BSON by earlier versions, and stores states in their own layout', async () => {
    const store = new VisitSessionStore(database, { keepMs: TIMEOUT_MS });
    const dimensions = {
      source: 'Google',
      utmSource: '',
      utmMedium: '',
      utmCampaign: '',
      browser: 'Chrome',
      os: 'Linux',
      device: 'Desktop',
      country: 'DE',
    };
    const tree = { s: NOW, l: NOW + 5_000, e: '/in', x: '/out', n: 2, b: false, d: dimensions, g: [7, 8] };
    await database.db.collection<Document>(VISIT_SESSIONS_COLLECTION).insertOne({
      _id: 'tree-session' as never,
      w: 'old:1',
      z: tree,
      o: { old: { q: 1, p: null } },
      x: new Date(NOW),
    });
    const read = (await store.read(['tree-session'])).get('tree-session');
    const state = { start: NOW, last: NOW + 5_000, entry: '/in', exit: '/out', views: 2, bounced: false };
    expect(read?.state).toEqual({ ...state, dimensions, seen: [7, 8] });
    expect(read?.outbox.get('old')).toEqual({ seq: 1, before: undefined });

    const next = { ...state, last: NOW + 9_000, views: 3, dimensions, seen: [7, 8, 9] };
    const lane = { lane: 'binary-test', seq: 4 };
    const lost = await store.write(
      [{ id: 'tree-session', expected: 'old:1', state: next, before: read?.state }],
      { mark: lane, guards: [lane] },
      writeVersion(lane),
      NOW,
    );
    expect([...lost]).toEqual([]);
    const stored = await database.db
      .collection<Document>(VISIT_SESSIONS_COLLECTION)
      .findOne({ _id: 'tree-session' as never });
    expect((stored?.z as Binary).sub_type).toBe(Binary.SUBTYPE_USER_DEFINED);
    expect((stored?.o?.[lane.lane]?.p as Binary).sub_type).toBe(Binary.SUBTYPE_USER_DEFINED);
    const again = (await store.read(['tree-session'])).get('tree-session');
    expect(again?.state).toEqual(next);
    expect(again?.outbox.get(lane.lane)).toEqual({ seq: 4, before: read?.state });

    // The fields' BSON in a generic binary, as the versions before visitStateBytes wrote it.
    await database.db.collection<Document>(VISIT_SESSIONS_COLLECTION).insertOne({
      _id: 'bson-session' as never,
      w: 'old:2',
      z: new Binary(BSON.serialize(tree)),
      o: { old: { q: 2, p: new Binary(BSON.serialize({ ...tree, l: NOW, n: 1, b: true, g: [7] })) } },
      x: new Date(NOW),
    });
    const bson = (await store.read(['bson-session'])).get('bson-session');
    expect(bson?.state).toEqual({ ...state, dimensions, seen: [7, 8] });
    expect(bson?.outbox.get('old')?.before).toEqual({
      ...state,
      last: NOW,
      views: 1,
      bounced: true,
      dimensions,
      seen: [7],
    });
  });

  it('keeps sessions by an opaque hash, without the site or the visitor id', async () => {
    const sessions = await database.db.collection(VISIT_SESSIONS_COLLECTION).find({}).toArray();
    expect(sessions.length).toBeGreaterThan(0);
    // States are binaries: search what they hold, not their base64.
    const text = readableJson(sessions);
    expect(text.includes('"/p')).toBe(true);
    expect(text.includes('person-')).toBe(false);
    expect(text.includes('database.example')).toBe(false);
  });
});
