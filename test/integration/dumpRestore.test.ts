/**
 * tally dump and restore against the real server: a 90-day data set with visitors and every dimension, ingested
 * through running instances (recordHits), then part of it compacted as the background job would (packed sketches
 * and counters), dumped and restored into a fresh database: every stored document and every answer — pageStats and
 * siteStats at DAY, HOUR and MINUTE with visitors, breakdowns of each dimension for the site and a page — equal the
 * source's. Two inputs ingested into two databases and merge-restored into one answer as both ingested into one.
 */
import { PassThrough, Readable } from 'node:stream';
import { Binary } from 'mongodb';
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { BSON } from 'mongodb';
import { ARCHIVED_COLLECTIONS } from '../../src/store/archive/archivedCollections';
import { dumpDatabase } from '../../src/store/archive/dumpDatabase';
import { openArchive } from '../../src/store/archive/readArchive';
import { restoreArchive, TargetNotEmptyError } from '../../src/store/archive/restoreArchive';
import type { RestoreSummary } from '../../src/store/archive/restoreArchive';
import { COMPACTION_PROJECTION, periodCompaction } from '../../src/store/compactPastPeriods';
import type { CompactableDocument, CompactedLevel } from '../../src/store/compactPastPeriods';
import type { Database } from '../../src/store/connectDatabase';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { IMPRESSION_ITEMS_COLLECTION } from '../../src/store/impressionItems';
import { IMPRESSION_PAIRS_COLLECTION } from '../../src/store/impressionPairs';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { REQUESTS_COLLECTION } from '../../src/store/requestLedger';
import { readRollupMarker, ROLLUP_MARKER_ID, ROLLUPS_COLLECTION, rollupsCollection } from '../../src/store/pageRollups';
import { VISITOR_SECRET_COLLECTION, VISITOR_SECRET_ID } from '../../src/store/visitorSecret';
import {
  BreakdownDocument,
  PageStatsWithVisitorsDocument,
  RecordHitsDocument,
  SiteStatsWithVisitorsDocument,
  TopPagesDocument,
} from '../generated/graphql';
import type { Dimension, Granularity, HitInput, RecordHitsMutation } from '../generated/graphql';
import type { GraphQLResponse } from '../support/startTestApp';
import { EXTERNAL_REFERRERS, PUBLIC_CLIENT_IPS, USER_AGENTS, UTM_QUERIES } from '../support/dimensionInputs';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { connectTestDatabase, testDatabaseName } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

jest.setTimeout(300_000);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TODAY = Date.now() - (Date.now() % DAY);
const FROM = TODAY - 89 * DAY;
const TO = TODAY + DAY;
const SITE = 'dump.example';
const PAGES = ['/', '/pricing', '/docs/a', '/blog/b'];
/** One secret for every database, as instances restored from one another's archives share it. */
const SECRET = new Binary(Buffer.alloc(32, 7));

interface SecretDocument {
  _id: string;
  key: Binary;
  createdAt: Date;
}

function secretDocument(key: Binary): SecretDocument {
  return { _id: VISITOR_SECRET_ID, key, createdAt: new Date(0) };
}

/** Deterministic hits over 90 days: visitors from a pool both inputs share, real User-Agents, addresses, referrers. */
function hitsOf(seed: number, count: number): HitInput[] {
  let state = seed;
  const next = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  const agents = Object.values(USER_AGENTS);
  const hits: HitInput[] = [];
  for (let i = 0; i < count; i++) {
    // Most hits in the last three days, so HOUR and MINUTE series have something to show.
    const at = next(3) === 0 ? TODAY - next(3) * DAY + next(DAY) : FROM + next(89) * DAY + next(DAY);
    const utm = next(4) === 0 ? `?${(UTM_QUERIES[next(UTM_QUERIES.length)] as { query: string }).query}` : '';
    hits.push({
      site: SITE,
      page: `${PAGES[next(PAGES.length)] as string}${utm}`,
      at: new Date(Math.min(at, Date.now() - 60_000)).toISOString(),
      count: 1 + next(3),
      visitor: `visitor-${next(400)}`,
      userAgent: (agents[next(agents.length)] as { userAgent: string }).userAgent,
      clientIp: (PUBLIC_CLIENT_IPS[next(PUBLIC_CLIENT_IPS.length)] as { ip: string }).ip,
      referrer: EXTERNAL_REFERRERS[next(EXTERNAL_REFERRERS.length)]?.url,
    });
  }
  return hits;
}

const INPUT_ONE = hitsOf(1, 1_500);
const INPUT_TWO = hitsOf(2, 1_200);

/** An instance on a database of its own that starts with SECRET, as a restored one would. */
async function startInstance(label: string, dbName = testDatabaseName(label)): Promise<TestApp> {
  const seed = await connectTestDatabase(`${label}_seed`);
  const database = seed.client.db(dbName);
  await database.collection<SecretDocument>(VISITOR_SECRET_COLLECTION).insertOne(secretDocument(SECRET));
  await seed.close();
  return startTestApp(label, { MONGODB_DB: dbName });
}

/** Impressions of users and items both inputs share, so a merge adds to existing pairs and creates others. */
function impressionsOf(seed: number): Array<{ userId: string; itemId: string; count: number }> {
  return Array.from({ length: 60 }, (_, i) => ({
    userId: `user-${(i * seed) % 17}`,
    itemId: `item-${(i + seed) % 11}`,
    count: 1 + ((i + seed) % 4),
  }));
}

const RECORD_KEYED_HITS = `mutation ($hits: [HitInput!]!, $key: String) {
  recordHits(hits: $hits, idempotencyKey: $key) { accepted total }
}`;

const RECORD_IMPRESSIONS = `mutation ($impressions: [ImpressionInput!]!) {
  recordImpressions(impressions: $impressions) { accepted }
}`;

/** The hits in batches (the first with an idempotency key, so the ledger has an entry), then the impressions. */
async function ingest(app: TestApp, hits: readonly HitInput[], seed: number): Promise<void> {
  for (let start = 0; start < hits.length; start += 500) {
    const batch = hits.slice(start, start + 500);
    const response =
      start === 0
        ? await app.graphql<RecordHitsMutation>(RECORD_KEYED_HITS, { hits: batch, key: `batch-${seed}` })
        : await app.graphql(RecordHitsDocument, { hits: batch });
    expect(ok(response).recordHits.accepted).toBe(batch.length);
  }
  const impressions = await app.graphql<{ recordImpressions: { accepted: number } }>(RECORD_IMPRESSIONS, {
    impressions: impressionsOf(seed),
  });
  expect(ok(impressions).recordImpressions.accepted).toBe(60);
}

/** Compacts every daily and monthly document older than today, as the background job does once a period is over. */
async function compactPast(database: Database): Promise<number> {
  let compacted = 0;
  for (const [name, level] of [
    [DAILY_COLLECTION, 'daily'],
    [MONTHLY_COLLECTION, 'monthly'],
  ] as const satisfies ReadonlyArray<readonly [string, CompactedLevel]>) {
    const collection = database.db.collection(name);
    const docs = (await collection
      .find(
        { 'metadata.date': { $lt: new Date(TODAY - 31 * DAY) } },
        { projection: COMPACTION_PROJECTION, promoteBuffers: true },
      )
      .toArray()) as unknown as CompactableDocument[];
    const operations = docs
      .map((doc) => periodCompaction(doc, level, database.policy.targeting))
      .filter((op): op is AnyBulkWriteOperation<Document> => op !== undefined);
    if (operations.length > 0) compacted += (await collection.bulkWrite(operations)).modifiedCount;
  }
  return compacted;
}

async function dump(database: Database): Promise<Buffer> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  await dumpDatabase(database, sink, { now: Date.now() });
  return Buffer.concat(chunks);
}

async function restore(database: Database, archive: Buffer, merge: boolean): Promise<RestoreSummary> {
  return restoreArchive(database, await openArchive(Readable.from([archive])), { merge });
}

/** Every document of every collection, as canonical Extended JSON sorted by `_id`. */
async function storedDocuments(database: Database): Promise<Record<string, string[]>> {
  const stored: Record<string, string[]> = {};
  for (const { name } of ARCHIVED_COLLECTIONS) {
    const docs = await database.db.collection(name).find({}, { promoteValues: false, promoteBuffers: false }).toArray();
    stored[name] = docs.map((doc) => BSON.EJSON.stringify(doc, { relaxed: false })).sort();
  }
  return stored;
}

/** What a dashboard shows of the site: series at three granularities with visitors, and every breakdown. */
async function answers(app: TestApp): Promise<unknown[]> {
  const results: unknown[] = [];
  const ranges = [
    { granularity: 'DAY' as Granularity, from: FROM, to: TO },
    { granularity: 'HOUR' as Granularity, from: TODAY - 2 * DAY, to: TO },
    { granularity: 'MINUTE' as Granularity, from: TODAY + 2 * HOUR, to: TODAY + 3 * HOUR },
  ];
  for (const { granularity, from, to } of ranges) {
    const range = { from: new Date(from).toISOString(), to: new Date(to).toISOString(), granularity };
    results.push(ok(await app.graphql(SiteStatsWithVisitorsDocument, { site: SITE, ...range })));
    for (const page of PAGES)
      results.push(ok(await app.graphql(PageStatsWithVisitorsDocument, { site: SITE, page, ...range })));
  }
  for (const [from, to] of [
    [FROM, TO],
    [TODAY - DAY, TO],
  ]) {
    const span = { from: new Date(from as number).toISOString(), to: new Date(to as number).toISOString() };
    results.push(ok(await app.graphql(TopPagesDocument, { site: SITE, ...span, first: 50 })));
  }
  for (const dimension of DIMENSIONS) {
    for (const page of [undefined, '/pricing']) {
      const variables = {
        site: SITE,
        page,
        dimension,
        from: new Date(FROM).toISOString(),
        to: new Date(TO).toISOString(),
        first: 50,
      };
      results.push(ok(await app.graphql(BreakdownDocument, variables)));
    }
  }
  return results;
}

function totalHits(answersOf: unknown[]): number {
  return (answersOf[0] as { siteStats: { total: number } }).siteStats.total;
}

const DIMENSIONS: readonly Dimension[] = [
  'BROWSER',
  'COUNTRY',
  'DEVICE',
  'OS',
  'SOURCE',
  'UTM_CAMPAIGN',
  'UTM_MEDIUM',
  'UTM_SOURCE',
];

/** The data of a response without errors. */
function ok<T>(response: GraphQLResponse<T>): T {
  expect(response.body.errors).toBeUndefined();
  expect(response.status).toBe(200);
  return response.body.data as T;
}

let one: TestApp;
let two: TestApp;
let both: TestApp;
const targets: TestDatabase[] = [];

beforeAll(async () => {
  [one, two, both] = await Promise.all([
    startInstance('dump_one'),
    startInstance('dump_two'),
    startInstance('dump_both'),
  ]);
  await ingest(one, INPUT_ONE, 1);
  await ingest(two, INPUT_TWO, 2);
  await ingest(both, INPUT_ONE, 1);
  await ingest(both, INPUT_TWO, 2);
  // Packed forms in the archives; `both` keeps the plain ones, so the merge is compared across forms too.
  expect(await compactPast(one.database)).toBeGreaterThan(10);
  expect(await compactPast(two.database)).toBeGreaterThan(10);
});

afterAll(async () => {
  await Promise.all([one, two, both].map((app) => app?.stop()));
  await Promise.all(targets.map((target) => target.dropAndClose()));
});

async function freshTarget(label: string): Promise<TestDatabase> {
  const target = await connectTestDatabase(label);
  targets.push(target);
  return target;
}

it('restores into a fresh database exactly: every document, every series, visitors and breakdown', async () => {
  const archive = await dump(one.database);
  const target = await freshTarget('dump_restored');
  await restore(target, archive, false);
  const source = await storedDocuments(one.database);
  expect(source[DAILY_COLLECTION]?.some((doc) => doc.includes('"vz"') && doc.includes('"dz"'))).toBe(true);
  expect(source[REQUESTS_COLLECTION]).toHaveLength(1);
  expect(source[IMPRESSION_PAIRS_COLLECTION]?.length).toBeGreaterThan(5);
  expect(await storedDocuments(target)).toEqual(source);

  const restored = await startTestApp('dump_restored_app', { MONGODB_DB: target.db.databaseName });
  try {
    const expected = await answers(one);
    expect(totalHits(expected)).toBe(INPUT_ONE.reduce((sum, hit) => sum + (hit.count ?? 1), 0));
    expect(await answers(restored)).toEqual(expected);
  } finally {
    await restored.close();
  }
});

it('refuses a target that holds data unless merging, and writes nothing then', async () => {
  const archive = await dump(two.database);
  const target = await freshTarget('dump_refused');
  await restore(target, archive, false);
  const before = await storedDocuments(target);
  await expect(restore(target, archive, false)).rejects.toThrow(TargetNotEmptyError);
  expect(await storedDocuments(target)).toEqual(before);
});

it('merges two archives into what ingesting both inputs into one database gives: counts and visitors', async () => {
  const [first, second] = await Promise.all([dump(one.database), dump(two.database)]);
  const target = await freshTarget('dump_merged');
  await restore(target, first, false);
  await restore(target, second, true);
  const merged = await startTestApp('dump_merged_app', { MONGODB_DB: target.db.databaseName });
  try {
    const expected = await answers(both);
    expect(totalHits(expected)).toBe([...INPUT_ONE, ...INPUT_TWO].reduce((sum, hit) => sum + (hit.count ?? 1), 0));
    expect(await answers(merged)).toEqual(expected);
    // Impression counts added pair by pair and item by item, as if one instance had counted both inputs.
    const [mergedDocuments, bothDocuments] = await Promise.all([
      storedDocuments(target),
      storedDocuments(both.database),
    ]);
    for (const name of [IMPRESSION_PAIRS_COLLECTION, IMPRESSION_ITEMS_COLLECTION]) {
      expect(mergedDocuments[name]?.length).toBeGreaterThan(5);
      expect(mergedDocuments[name]).toEqual(bothDocuments[name]);
    }
    // Both archives' ledger entries, each kept.
    expect(mergedDocuments[REQUESTS_COLLECTION]).toHaveLength(2);
  } finally {
    await merged.close();
  }
});

it('keeps the target’s visitor secret on a merge and says when it differs from the archive’s', async () => {
  const archive = await dump(two.database);
  const target = await freshTarget('dump_secret');
  const own = new Binary(Buffer.alloc(32, 9));
  await target.db.collection<SecretDocument>(VISITOR_SECRET_COLLECTION).insertOne(secretDocument(own));
  const merged = await restore(target, archive, true);
  expect(merged.secret).toBe('differs');
  expect(merged.counts.get(DAILY_COLLECTION)).toBeGreaterThan(0);
  const stored = await target.db.collection(VISITOR_SECRET_COLLECTION).findOne({ _id: VISITOR_SECRET_ID } as Document);
  expect((stored?.key as Binary).value()).toEqual(own.value());
  // Without --merge the archive's secret replaces the one a bare start made.
  const fresh = await freshTarget('dump_secret_fresh');
  await fresh.db.collection<SecretDocument>(VISITOR_SECRET_COLLECTION).insertOne(secretDocument(own));
  expect((await restore(fresh, archive, false)).secret).toBe('restored');
  const replaced = await fresh.db.collection(VISITOR_SECRET_COLLECTION).findOne({ _id: VISITOR_SECRET_ID } as Document);
  expect((replaced?.key as Binary).value()).toEqual(SECRET.value());
});

it('settles the page rollups’ marker: the archive’s into an empty target, the later of both on a merge, else none', async () => {
  const archive = await dump(one.database);
  expect(await readRollupMarker(rollupsCollection(one.database.db))).toBe(0);
  const marker = (target: TestDatabase): Promise<number | undefined> => readRollupMarker(rollupsCollection(target.db));
  const setMarker = (target: TestDatabase, day: number): Promise<unknown> =>
    target.db
      .collection(ROLLUPS_COLLECTION)
      .replaceOne({ _id: ROLLUP_MARKER_ID } as Document, { day: new Date(day) }, { upsert: true });

  // A bare start vouched for every day of its empty database; the archive's marker replaces it.
  const fresh = await freshTarget('dump_marker_fresh');
  await setMarker(fresh, 0);
  await restore(fresh, archive, false);
  expect(await marker(fresh)).toBe(0);

  // An archive of a database whose rollups are complete only from a later day: the later day wins a merge.
  const later = TODAY + DAY;
  await setMarker(fresh, later);
  const laterArchive = await dump(fresh);
  const merged = await freshTarget('dump_marker_merged');
  await restore(merged, archive, false);
  await restore(merged, laterArchive, true);
  expect(await marker(merged)).toBe(later);

  // An archive without a marker (written before rollups): nothing vouches for its days, merged or restored.
  await fresh.db.collection(ROLLUPS_COLLECTION).deleteOne({ _id: ROLLUP_MARKER_ID } as Document);
  const unmarked = await dump(fresh);
  await restore(merged, unmarked, true);
  expect(await marker(merged)).toBeUndefined();
  const bare = await freshTarget('dump_marker_bare');
  await setMarker(bare, 0);
  await restore(bare, unmarked, false);
  expect(await marker(bare)).toBeUndefined();
});
