/**
 * Compaction of event documents' visitor sketches (compactEventSketches) against the real server, in both targeting
 * modes: past days' and months' `ev.<event>` become `evz.<event>` binaries, every read gives the same counts and
 * visitor estimates before and after, a second run changes nothing, a late event is read beside the binary and
 * folded in by the next run, a write between the read and the rewrite leaves the document to a later run, and
 * documents written before this process are nominated by the read that finds their register fields.
 */
import type { Document } from 'mongodb';
import type { Hit } from '../../src/domain/Hit';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';
import { EventLoader } from '../../src/query/events/EventLoader';
import type { EventSpan } from '../../src/query/events/EventLoader';
import { compactEventSketches, eventSketchCompaction } from '../../src/store/compactEventSketches';
import type { CompactableEventDocument } from '../../src/store/compactEventSketches';
import { COMPACTION_DELAY_MS } from '../../src/store/CompactionNominations';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import type { Targeting } from '../../src/store/counterUpsert';
import { EVENT_VISITOR_PRECISION, eventNamePaths } from '../../src/store/eventDocument';
import { EVENTS_DAILY_COLLECTION, eventsDailyId } from '../../src/store/eventsDaily';
import { EVENTS_MONTHLY_COLLECTION, eventsMonthlyId } from '../../src/store/eventsMonthly';
import { EventStore } from '../../src/store/EventStore';
import { ok } from '../support/ok';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

const DAY = 86_400_000;
const MAY = Date.parse('2026-05-01T00:00:00Z');
const JUNE = Date.parse('2026-06-01T00:00:00Z');
/** Long after June: every day and month written is past, and due for compaction. */
const LATER = Date.parse('2026-07-02T00:00:00Z') + COMPACTION_DELAY_MS;
const NAMES = ['Signup', 'Purchase', 'Outbound Link: Click'];

/** Events over the last days of May and the first of June, with visitors drawn from a pool (some repeat). */
function traffic(site: string, seed: number, count: number): Hit[] {
  const hits: Hit[] = [];
  for (let i = 0; i < count; i++) {
    const visitor = (i * 7 + seed * 13) % Math.floor(count * 0.6);
    hits.push({
      site,
      page: i % 3 === 0 ? '/buy' : '/',
      at: JUNE - 4 * DAY + ((i * 53 * 60_000 + seed) % (8 * DAY)),
      count: 1 + (i % 2),
      visitor: { hi: visitor, lo: Math.imul(visitor + seed * 1_000_003, 2654435761) >>> 0 },
      event: { name: NAMES[i % NAMES.length] as string, props: [] },
    });
  }
  return hits;
}

/** The estimate a sketch built from the hits themselves gives (EventTotals rounds it the same way). */
function directVisitors(hits: readonly Hit[], name: string, from: number, to: number): number {
  const sketch = VisitorSketch.empty(EVENT_VISITOR_PRECISION);
  for (const hit of hits) {
    if (hit.event?.name === name && hit.at >= from && hit.at < to && hit.visitor) sketch.add(hit.visitor);
  }
  return Math.round(sketch.estimate());
}

describe.each<Targeting>(['shardKey', 'idOnly'])('event sketch compaction with %s targeting', (targeting) => {
  const site = `evz-${targeting}.example`;
  const sent: Hit[] = [];
  let database: TestDatabase;
  let store: CounterStore;
  let events: EventStore;

  beforeAll(async () => {
    database = await connectTestDatabase(`event_compaction_${targeting}`, { targeting });
    store = new CounterStore(database);
    await store.ensureIndexes();
    events = new EventStore(database);
  });

  afterAll(async () => {
    await database.dropAndClose();
  });

  async function write(hits: readonly Hit[], into = store): Promise<void> {
    const batch = new CounterBatch({ siteTotals: true });
    for (const hit of hits) batch.add(hit);
    await into.write(batch);
    sent.push(...hits);
  }

  /** Every span the queries read, per page: counts and each name's visitors, by whole documents and by paths. */
  async function readAll(reader: EventStore = events): Promise<unknown> {
    const loader = new EventLoader(reader);
    const spans: Array<[number, number]> = [
      [JUNE - 4 * DAY, JUNE + 4 * DAY],
      [JUNE - DAY, JUNE],
      [MAY, JUNE],
      [MAY, JUNE + 5 * DAY],
      [JUNE + 2 * DAY, JUNE + 3 * DAY],
    ];
    const answers: unknown[] = [];
    for (const page of [SITE_TOTAL_PAGE, '/buy', '/']) {
      for (const [from, to] of spans) {
        for (const fields of [undefined, NAMES.flatMap((name) => eventNamePaths(name, ['n', 'ev']))]) {
          const span: EventSpan = { site, page, from, to, fields };
          const totals = await loader.load(span);
          answers.push([page, from, to, [...totals.counts()].sort(), NAMES.map((name) => totals.visitors(name))]);
        }
      }
    }
    return answers;
  }

  async function stored(collection: string, id: string): Promise<Document | null> {
    return database.db.collection(collection).findOne({ _id: id } as Document, { promoteBuffers: true });
  }

  it('folds past sketches into binaries, reads the same counts and estimates after, and does nothing the second time', async () => {
    await write(traffic(site, 1, 600));
    const before = await readAll();
    const siteTotals = await new EventLoader(events).load({
      site,
      page: SITE_TOTAL_PAGE,
      from: MAY,
      to: JUNE + 5 * DAY,
    });
    for (const name of NAMES) {
      expect(siteTotals.visitors(name)).toBe(directVisitors(sent, name, MAY, JUNE + 5 * DAY));
    }

    // 8 days and 2 months, each for the site and its 2 pages; and the site's 10 hit documents, whose sketch an
    // event's visitor joins.
    expect(await store.compactPastPeriods(LATER)).toBe(30 + 10);
    const day = await stored(EVENTS_DAILY_COLLECTION, eventsDailyId(site, SITE_TOTAL_PAGE, JUNE));
    expect(Object.keys(day?.ev ?? {})).toEqual([]);
    expect(Object.keys(day?.evz ?? {}).sort()).toEqual([...NAMES].sort());
    const month = await stored(EVENTS_MONTHLY_COLLECTION, eventsMonthlyId(site, '/buy', MAY));
    expect(Object.keys(month?.ev ?? {})).toEqual([]);
    expect(month?.evz?.Signup).toBeInstanceOf(Uint8Array);

    expect(await readAll()).toEqual(before);
    // Idempotent: nothing left to fold, nothing rewritten, the same answers.
    store.eventNominations.nominate('daily', eventsDailyId(site, SITE_TOTAL_PAGE, JUNE), JUNE);
    expect(await store.compactPastPeriods(LATER)).toBe(0);
    expect(await stored(EVENTS_DAILY_COLLECTION, eventsDailyId(site, SITE_TOTAL_PAGE, JUNE))).toEqual(day);
    expect(await readAll()).toEqual(before);
  });

  it('reads a late event written beside the binary, and folds it in at the next run', async () => {
    const late = traffic(site, 2, 90).map((hit) => ({ ...hit, at: JUNE + 2 * DAY + (hit.at % DAY) }));
    await write(late);
    const id = eventsDailyId(site, SITE_TOTAL_PAGE, JUNE + 2 * DAY);
    const both = await stored(EVENTS_DAILY_COLLECTION, id);
    expect(Object.keys(both?.ev ?? {}).length).toBeGreaterThan(0);
    expect(Object.keys(both?.evz ?? {}).length).toBeGreaterThan(0);
    const afterLate = await readAll();
    const totals = await new EventLoader(events).load({ site, page: SITE_TOTAL_PAGE, from: JUNE, to: JUNE + 4 * DAY });
    for (const name of NAMES) expect(totals.visitors(name)).toBe(directVisitors(sent, name, JUNE, JUNE + 4 * DAY));

    expect(await store.compactPastPeriods(LATER)).toBeGreaterThanOrEqual(3);
    expect(Object.keys((await stored(EVENTS_DAILY_COLLECTION, id))?.ev ?? {})).toEqual([]);
    expect(await readAll()).toEqual(afterLate);
  });

  it('leaves a document that a write changed after the read to a later run, losing nothing', async () => {
    const day = JUNE + DAY;
    const id = eventsDailyId(site, '/', day);
    const event = (visitor: number): Hit => ({
      site,
      page: '/',
      at: day + 3_600_000,
      count: 1,
      visitor: { hi: visitor, lo: visitor * 40_503 },
      event: { name: 'Signup', props: [] },
    });
    await write([event(90_001)]);
    const read = (await database.db
      .collection(EVENTS_DAILY_COLLECTION)
      .findOne({ _id: id } as Document, { promoteBuffers: true })) as unknown as CompactableEventDocument;
    const operation = ok(eventSketchCompaction(read, database.policy.targeting));
    // A flush lands between the compaction's read and its rewrite.
    await write([event(90_002)]);
    const result = await database.db.collection(EVENTS_DAILY_COLLECTION).bulkWrite([operation]);
    expect(result.modifiedCount).toBe(0);
    const visitors = async (): Promise<number> =>
      (await new EventLoader(events).load({ site, page: '/', from: day, to: day + DAY })).visitors('Signup');
    const expected = directVisitors(
      sent.filter((hit) => hit.page === '/'),
      'Signup',
      day,
      day + DAY,
    );
    expect(await visitors()).toBe(expected);
    // The write nominated the document again.
    expect(await store.compactPastPeriods(LATER)).toBeGreaterThanOrEqual(1);
    expect(Object.keys((await stored(EVENTS_DAILY_COLLECTION, id))?.ev ?? {})).toEqual([]);
    expect(await visitors()).toBe(expected);
  });

  it('nominates, on read, documents written before this process started', async () => {
    const other = `${site}.old`;
    const old = traffic(other, 3, 40);
    await write(old, new CounterStore(database));
    const fresh = new CounterStore(database);
    const reader = new EventStore(database, {
      onUncompacted: (level, id, start) =>
        fresh.eventNominations.nominate(level === 'day' ? 'daily' : 'monthly', id, start),
    });
    // A new store has seen no write: nothing to compact until a read finds register fields.
    expect(await fresh.compactPastPeriods(LATER)).toBe(0);
    await new EventLoader(reader).load({
      site: other,
      page: SITE_TOTAL_PAGE,
      from: JUNE - 4 * DAY,
      to: JUNE + 4 * DAY,
    });
    const nominated = fresh.eventNominations.size('daily') + fresh.eventNominations.size('monthly');
    expect(nominated).toBe(new Set(old.map((hit) => Math.floor(hit.at / DAY))).size);
    expect(await fresh.compactPastPeriods(LATER)).toBe(nominated);
    const ids = [...Array(8).keys()].map((i) => eventsDailyId(other, SITE_TOTAL_PAGE, JUNE - 4 * DAY + i * DAY));
    const docs = await database.db
      .collection(EVENTS_DAILY_COLLECTION)
      .find({ _id: { $in: ids } } as Document)
      .toArray();
    expect(docs.every((doc) => Object.keys((doc.ev as object | undefined) ?? {}).length === 0)).toBe(true);
  });

  it('compacts the ids it is given directly, counting only the documents it rewrote', async () => {
    const id = eventsDailyId(site, '/', JUNE + 3 * DAY);
    const collection = database.db.collection(EVENTS_DAILY_COLLECTION);
    await write([{ ...(traffic(site, 4, 1)[0] as Hit), page: '/', at: JUNE + 3 * DAY + 60_000 }]);
    expect(await compactEventSketches(collection, collection, [id, `${id}-missing`], { targeting })).toBe(1);
    expect(await compactEventSketches(collection, collection, [id], { targeting })).toBe(0);
  });
});
