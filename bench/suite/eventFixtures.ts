/**
 * Stored data for the cost of events (issue 28): one site with `hits` hits over the 90 UTC days before today, on
 * Zipf-popular pages, with visitors and every dimension (audienceFixtures' audience), EVENT_SHARE of the hits being
 * events (eventTraffic). Written as the server writes them — the ingest path's own CounterBatch with site totals,
 * the page rollup, the default dimension settings and one EventCounting — and inserted with insertMany day by day
 * (a day's documents when the day is done, a month's when the month is), so loading 1,000,000 hits takes a minute,
 * not the hours HTTP would. Then, as a running server's compaction job leaves them, the sketches and dimension
 * counters of past days and months are compacted, and the event documents' visitor sketches. It keeps the exact
 * answers the conversions must match: each goal's events, revenue and distinct visitors, and the site's distinct
 * visitors, over the spans queried.
 */
import { BSON } from 'mongodb';
import type { Db, Document } from 'mongodb';
import { loadConfig } from '../../src/config/loadConfig';
import type { Hit } from '../../src/domain/Hit';
import { deriveDimensions } from '../../src/domain/dimensions/deriveDimensions';
import type { DimensionContext } from '../../src/domain/dimensions/deriveDimensions';
import { parsePageGoal } from '../../src/domain/events/pageGoal';
import { splitmix64 } from '../../src/domain/visitors/splitmix64';
import { loadDimensionSources } from '../../src/ingest/loadDimensionSources';
import { buildPageDigests } from '../../src/store/buildPageDigests';
import { compactEventSketches } from '../../src/store/compactEventSketches';
import { compactPastPeriods } from '../../src/store/compactPastPeriods';
import type { CompactedLevel } from '../../src/store/compactPastPeriods';
import { CounterBatch } from '../../src/store/CounterBatch';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { EventCounting } from '../../src/store/EventCounting';
import { EVENTS_DAILY_COLLECTION } from '../../src/store/eventsDaily';
import { EVENTS_MONTHLY_COLLECTION } from '../../src/store/eventsMonthly';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { pageDigestsCollection } from '../../src/store/pageDigests';
import { ROLLUP_MARKER_ID, ROLLUPS_COLLECTION } from '../../src/store/pageRollups';
import { monthKey } from '../../src/time/buckets';
import { PageRollup } from '../../src/store/PageRollup';
import type { PendingUpdates } from '../../src/store/PendingUpdates';
import { AudienceTraffic } from '../shared/audienceTraffic';
import { eventAt, hitEventOf } from '../shared/eventTraffic';
import { unitAt, zipfCdf, zipfPick } from '../shared/random';
import { elapsedMs } from '../shared/stats';
import { pagePath } from '../shared/traffic';
import { firstDayBefore, serverDimensionCounting } from './audienceFixtures';
import type { StoredTraffic } from './audienceFixtures';
import { upsertedDocument } from './counterDocuments';

export const EVENT_SITE = 'events.example';
export const EVENT_DAYS = 90;
/** The spans conversions are timed over, in whole days ending at today's UTC midnight. */
export const EVENT_SPANS = [30, 90] as const;
/** The five goals: two events, three page patterns (exact, `*`, `**`). */
export const GOALS: ReadonlyArray<{ readonly event?: string; readonly page?: string }> = [
  { event: 'Signup' },
  { event: 'Purchase' },
  { page: pagePath(0) },
  { page: '/articles/000*.html' },
  { page: '/articles/01**' },
];
const EVENT_SEED = 2828;
const DAY_MS = 86_400_000;
const INSERT_CHUNK = 500;

/** What a goal really had over one span. */
export interface GoalTruth {
  readonly goal: string;
  readonly events: number;
  readonly visitors: number;
  /** Minor units per currency. */
  readonly revenue: Readonly<Record<string, number>>;
}

export interface SpanTruth {
  readonly days: number;
  readonly siteVisitors: number;
  readonly goals: readonly GoalTruth[];
}

/** Bytes (BSON) of the documents of one kind, per site-day or site-month as inserted (before compaction). */
export interface PeriodBytes {
  readonly periods: number;
  readonly documents: number;
  readonly meanBytes: number;
  readonly maxBytes: number;
  /** The largest single document. */
  readonly largestDocument: number;
}

export interface EventDataSet {
  /** UTC midnight of the first day; the data ends at first + 90 days (today's midnight). */
  readonly first: number;
  readonly hits: number;
  readonly events: number;
  readonly pages: number;
  readonly visitorPool: number;
  readonly documents: Readonly<Record<string, number>>;
  readonly loadMs: number;
  readonly compactedDocuments: number;
  /** Page digests written by the compaction (pageDigests): one per past site-day and past site-month. */
  readonly digests: number;
  readonly compactMs: number;
  readonly truth: readonly SpanTruth[];
  readonly bytes: {
    readonly statsDay: PeriodBytes;
    readonly eventsDay: PeriodBytes;
    readonly statsMonth: PeriodBytes;
    readonly eventsMonth: PeriodBytes;
  };
}

export async function loadEventData(db: Db, settings: StoredTraffic): Promise<EventDataSet> {
  const start = process.hrtime.bigint();
  const first = firstDayBefore(settings.now, EVENT_DAYS);
  const today = first + EVENT_DAYS * DAY_MS;
  const pageRollup = new PageRollup({ maxPages: loadConfig({}).dashboards.topPagesRollupPages });
  // One of each per process, as in the server: admission to each document is decided across every batch.
  const dimensions = serverDimensionCounting();
  const events = new EventCounting();
  const context: DimensionContext = { siteHost: EVENT_SITE, ...loadDimensionSources(undefined) };
  const visitorPool = Math.max(100, Math.round(settings.hits / 4));
  const audience = new AudienceTraffic({
    seed: 2829,
    visitors: visitorPool,
    visitorZipfS: 0.6,
    siteHost: EVENT_SITE,
    longTailHosts: 1_000,
    longTailZipfS: 0,
  });
  const cdf = zipfCdf(settings.pages, 1);
  const truth = new TruthCounter(first);
  const sizes = {
    statsDay: new SizeCounter(),
    eventsDay: new SizeCounter(),
    statsMonth: new SizeCounter(),
    eventsMonth: new SizeCounter(),
    rollups: new SizeCounter(),
  };
  const documents: Record<string, number> = {};
  const past: Record<CompactedLevel, string[]> = { daily: [], monthly: [] };
  const pastEvents: Record<CompactedLevel, string[]> = { daily: [], monthly: [] };
  let eventHits = 0;
  let month = new CounterBatch();
  let monthStart = startOfMonth(first);
  const flushMonth = async (): Promise<void> => {
    await insert(db, MONTHLY_COLLECTION, month.monthly, documents, sizes.statsMonth);
    await insert(db, EVENTS_MONTHLY_COLLECTION, month.eventsMonthly, documents, sizes.eventsMonth);
    await insert(db, ROLLUPS_COLLECTION, month.rollupsMonthly, documents, sizes.rollups);
    past.monthly.push(...month.monthly.compactableKeys().map((key) => key.id));
    pastEvents.monthly.push(...month.eventsMonthly.compactableKeys().map((key) => key.id));
  };
  for (let day = 0; day < EVENT_DAYS; day++) {
    const dayStart = first + day * DAY_MS;
    if (startOfMonth(dayStart) !== monthStart) {
      await flushMonth();
      month = new CounterBatch();
      monthStart = startOfMonth(dayStart);
    }
    const batch = new CounterBatch({ siteTotals: true, dimensions, pageRollup, events });
    const from = Math.floor((day * settings.hits) / EVENT_DAYS);
    const to = Math.floor(((day + 1) * settings.hits) / EVENT_DAYS);
    for (let i = from; i < to; i++) {
      const page = pagePath(zipfPick(cdf, unitAt(6006, i)));
      const who = audience.hit(i);
      const event = eventAt(EVENT_SEED, i);
      batch.add({
        ...audienceHit(
          who,
          page,
          dayStart + Math.floor(((i - from + unitAt(6007, i)) * DAY_MS) / (to - from)),
          context,
        ),
        ...(event === undefined ? {} : { event: hitEventOf(event) }),
      });
      if (event !== undefined) eventHits++;
      truth.add(day, page, who.visitorRank, event);
    }
    await insert(db, DAILY_COLLECTION, batch.daily, documents, sizes.statsDay);
    await insert(db, EVENTS_DAILY_COLLECTION, batch.eventsDaily, documents, sizes.eventsDay);
    await insert(db, ROLLUPS_COLLECTION, batch.rollupsDaily, documents, sizes.rollups);
    past.daily.push(...batch.daily.compactableKeys().map((key) => key.id));
    pastEvents.daily.push(...batch.eventsDaily.compactableKeys().map((key) => key.id));
    // Months are written from a batch of their own, as a server's flushes over a month add up to.
    month.monthly.absorb(batch.monthly);
    month.eventsMonthly.absorb(batch.eventsMonthly);
    month.rollupsMonthly.absorb(batch.rollupsMonthly);
  }
  // Every day was rolled up, as by a server that wrote them all (pageRollups' marker; a server started on the empty
  // database has written the same).
  await db
    .collection(ROLLUPS_COLLECTION)
    .replaceOne({ _id: ROLLUP_MARKER_ID } as Document, { day: new Date(0) }, { upsert: true });
  await flushMonth();
  const loadMs = elapsedMs(start);
  const compactStart = process.hrtime.bigint();
  let compactedDocuments = 0;
  let digests = 0;
  const digestCollection = pageDigestsCollection(db);
  const digestSources = {
    daily: db.collection(DAILY_COLLECTION, { promoteBuffers: true }),
    monthly: db.collection(MONTHLY_COLLECTION, { promoteBuffers: true }),
    rollups: db.collection(ROLLUPS_COLLECTION),
    digests: digestCollection,
    writer: digestCollection,
  };
  // The current month's documents are not past: the server compacts them once the month is over.
  const current = `${monthKey(today)}/`;
  for (const [level, collection, events] of [
    ['daily', DAILY_COLLECTION, EVENTS_DAILY_COLLECTION],
    ['monthly', MONTHLY_COLLECTION, EVENTS_MONTHLY_COLLECTION],
  ] as const) {
    const ids = level === 'monthly' ? past.monthly.filter((id) => !id.startsWith(current)) : past.daily;
    const target = db.collection(collection);
    compactedDocuments += await compactPastPeriods(target, target, level, ids, { targeting: 'shardKey' });
    // The job's last step: the page digests of the compacted days, then months (made of their days' digests).
    digests += await buildPageDigests(digestSources, level, ids);
    // Then the event documents' visitor sketches, as the job does after the hit documents.
    const eventIds = pastEvents[level].filter((id) => level === 'daily' || !id.startsWith(current));
    const eventTarget = db.collection(events);
    compactedDocuments += await compactEventSketches(eventTarget, eventTarget, eventIds, { targeting: 'shardKey' });
  }
  return {
    first,
    hits: settings.hits,
    events: eventHits,
    pages: settings.pages,
    visitorPool,
    documents,
    loadMs,
    compactedDocuments,
    digests,
    compactMs: elapsedMs(compactStart),
    truth: EVENT_SPANS.map((days) => truth.span(days)),
    bytes: {
      statsDay: sizes.statsDay.summary(),
      eventsDay: sizes.eventsDay.summary(),
      statsMonth: sizes.statsMonth.summary(),
      eventsMonth: sizes.eventsMonth.summary(),
    },
  };
}

/** A pageview of the fixture's site by `who` (AudienceTraffic.hit), with its visitor and every dimension. */
export function audienceHit(
  who: ReturnType<AudienceTraffic['hit']>,
  page: string,
  at: number,
  context: DimensionContext,
): Hit {
  return {
    site: EVENT_SITE,
    page,
    at,
    count: 1,
    visitor: splitmix64(2829, who.visitorRank),
    dimensions: deriveDimensions(
      { referrer: who.referrer, userAgent: who.userAgent, clientIp: who.clientIp, pageUrl: page },
      who.utm,
      context,
    ),
  };
}

function startOfMonth(t: number): number {
  const date = new Date(t);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

async function insert(
  db: Db,
  collection: string,
  updates: PendingUpdates,
  counts: Record<string, number>,
  sizes: SizeCounter,
): Promise<void> {
  const docs = updates.toOperations('shardKey').map(upsertedDocument);
  sizes.addPeriod(docs);
  for (let i = 0; i < docs.length; i += INSERT_CHUNK) {
    await db.collection(collection).insertMany(docs.slice(i, i + INSERT_CHUNK), { ordered: false });
  }
  counts[collection] = (counts[collection] ?? 0) + docs.length;
}

/** BSON bytes of one period's documents (all pages and the site total) at a time. */
class SizeCounter {
  private periods = 0;
  private documents = 0;
  private total = 0;
  private max = 0;
  private largest = 0;

  addPeriod(docs: readonly Document[]): void {
    if (docs.length === 0) return;
    let bytes = 0;
    for (const doc of docs) {
      const size = BSON.calculateObjectSize(doc);
      bytes += size;
      this.largest = Math.max(this.largest, size);
    }
    this.periods++;
    this.documents += docs.length;
    this.total += bytes;
    this.max = Math.max(this.max, bytes);
  }

  summary(): PeriodBytes {
    return {
      periods: this.periods,
      documents: this.documents,
      meanBytes: this.periods === 0 ? 0 : this.total / this.periods,
      maxBytes: this.max,
      largestDocument: this.largest,
    };
  }
}

interface GoalCounter {
  events: number;
  readonly visitors: Set<number>;
  readonly revenue: Record<string, number>;
}

/** Exact answers per span, as the hits go by. */
class TruthCounter {
  private readonly pageGoals = GOALS.flatMap((goal, index) =>
    goal.page === undefined ? [] : [{ index, matches: parsePageGoal(goal.page, 'goal') }],
  );
  private readonly spans = EVENT_SPANS.map((days) => ({
    days,
    site: new Set<number>(),
    goals: GOALS.map((): GoalCounter => ({ events: 0, visitors: new Set(), revenue: {} })),
  }));

  constructor(private readonly first: number) {}

  add(day: number, page: string, visitor: number, event: ReturnType<typeof eventAt>): void {
    for (const span of this.spans) {
      if (day < EVENT_DAYS - span.days) continue;
      span.site.add(visitor);
      if (event !== undefined) {
        const goal = span.goals[GOALS.findIndex((g) => g.event === event.name)];
        if (goal === undefined) continue;
        goal.events++;
        goal.visitors.add(visitor);
        if (event.revenue !== undefined)
          goal.revenue[event.revenue.currency] = (goal.revenue[event.revenue.currency] ?? 0) + event.revenue.minor;
        continue;
      }
      for (const { index, matches } of this.pageGoals) {
        if (!matches(page)) continue;
        const goal = span.goals[index] as GoalCounter;
        goal.events++;
        goal.visitors.add(visitor);
      }
    }
  }

  span(days: number): SpanTruth {
    const span = this.spans.find((s) => s.days === days);
    if (span === undefined) throw new RangeError(`no truth kept for ${days} days (first day ${this.first})`);
    return {
      days,
      siteVisitors: span.site.size,
      goals: GOALS.map((goal, i) => {
        const counted = span.goals[i] as GoalCounter;
        return {
          goal: goal.event ?? `Visit ${goal.page as string}`,
          events: counted.events,
          visitors: counted.visitors.size,
          revenue: counted.revenue,
        };
      }),
    };
  }
}
