/**
 * Section 9's stored data: two sites, each with `hits` hits over the 90 UTC days before today, on Zipf-popular pages,
 * with visitors (a pool with repeat visits) and every dimension derived from realistic inputs, as the server would
 * store them (the ingest path's CounterBatch with site totals and the default dimension settings; the visitor hash
 * is splitmix64, the keyed hash's stand-in). The sites differ only in their referrers' long tail: 1,000 or 100,000
 * hosts, drawn uniformly, so a breakdown of SOURCE meets as many distinct values as the traffic holds. Documents are
 * built day by day (a day's daily documents inserted when the day is done, monthly ones when the month is), so
 * memory follows a day's documents, not the data set. It also keeps the exact answers: distinct visitors of the
 * dashboard's pages and of the site, over the range and per day, and distinct sources per span. Then, as a running
 * server's compaction job leaves them once each period is over, the sketches and dimension counters of every past day and month are
 * compacted by the store's own compactPastPeriods (timed); the current month's documents keep their register fields.
 * Visit counters (issue 29) come from the server's own transitions (advanceVisit, 30-minute timeout) over each
 * visitor's hits in time order; a visit ends at UTC midnight here, so each day's documents are written once. A hit
 * continues the previous hit's visitor with a fixed chance, so visits have several pageviews, as real ones do.
 */
import type { Db } from 'mongodb';
import { loadConfig } from '../../src/config/loadConfig';
import { deriveDimensions } from '../../src/domain/dimensions/deriveDimensions';
import type { DimensionContext } from '../../src/domain/dimensions/deriveDimensions';
import { splitmix64 } from '../../src/domain/visitors/splitmix64';
import { advanceVisit } from '../../src/domain/visits/advanceVisit';
import type { VisitState } from '../../src/domain/visits/VisitState';
import { loadDimensionSources } from '../../src/ingest/loadDimensionSources';
import { compactPastPeriods } from '../../src/store/compactPastPeriods';
import type { CompactedLevel } from '../../src/store/compactPastPeriods';
import { CounterBatch } from '../../src/store/CounterBatch';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { DimensionCounting } from '../../src/store/DimensionCounting';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { PendingUpdates } from '../../src/store/PendingUpdates';
import { AudienceTraffic } from '../shared/audienceTraffic';
import { unitAt, zipfCdf, zipfPick } from '../shared/random';
import { elapsedMs } from '../shared/stats';
import { pagePath } from '../shared/traffic';
import { upsertedDocument } from './counterDocuments';

export const AUDIENCE_DAYS = 90;
/** The spans breakdowns are timed over, in whole days ending today. */
export const BREAKDOWN_SPANS = [1, 30, 90] as const;
/** Pages of the dashboard: the 20 most popular. */
export const DASHBOARD_PAGES = 20;
const DAY_MS = 86_400_000;
const INSERT_CHUNK = 500;
const VISIT_TIMEOUT_MS = 30 * 60_000;
/** A hit continues the previous hit's visitor with this chance: visits of 2.5 pageviews on average. */
const CONTINUE_VISIT = 0.6;

export interface AudienceSite {
  readonly site: string;
  /** Distinct long-tail referrer hosts the traffic draws from. */
  readonly longTailHosts: number;
}

export const AUDIENCE_SITES: readonly AudienceSite[] = [
  { site: 'sources-1k.example', longTailHosts: 1_000 },
  { site: 'sources-100k.example', longTailHosts: 100_000 },
];

/** Exact answers for one site. */
export interface AudienceTruth {
  /** Distinct visitors of dashboard page k over the whole range, and per day (index 0 is the first day). */
  readonly pageVisitors: number[];
  readonly pageDayVisitors: number[][];
  readonly siteVisitors: number;
  readonly siteDayVisitors: number[];
  /** Distinct SOURCE values in the hits of the last 1, 30 and 90 days. */
  readonly sources: Record<number, number>;
}

export interface AudienceDataSet {
  /** UTC midnight of the first day; the range ends at first + 90 days (today's midnight). */
  readonly first: number;
  readonly hitsPerSite: number;
  readonly pages: number;
  readonly visitorPool: number;
  readonly dailyDocuments: number;
  readonly monthlyDocuments: number;
  readonly loadMs: number;
  /** Documents whose sketches were compacted after the load, and how long that took. */
  readonly compactedDocuments: number;
  readonly compactMs: number;
  readonly truth: Record<string, AudienceTruth>;
}

/** What a stored data set holds: `hits` over the days before `now`'s UTC day, on `pages` pages. */
export interface StoredTraffic {
  readonly hits: number;
  readonly pages: number;
  readonly now: number;
}

/** UTC midnight `days` days before `now`'s: the first day of a data set ending today. */
export function firstDayBefore(now: number, days: number): number {
  return now - (now % DAY_MS) - days * DAY_MS;
}

export async function loadAudienceData(db: Db, settings: StoredTraffic): Promise<AudienceDataSet> {
  const start = process.hrtime.bigint();
  const first = firstDayBefore(settings.now, AUDIENCE_DAYS);
  const dimensions = serverDimensionCounting();
  const sources = loadDimensionSources(undefined);
  const visitorPool = Math.max(100, Math.round(settings.hits / 4));
  const cdf = zipfCdf(settings.pages, 1);
  const truth: Record<string, AudienceTruth> = {};
  let dailyDocuments = 0;
  let monthlyDocuments = 0;
  const past: Record<CompactedLevel, string[]> = { daily: [], monthly: [] };
  for (const { site, longTailHosts } of AUDIENCE_SITES) {
    const audience = new AudienceTraffic({
      seed: 5005,
      visitors: visitorPool,
      visitorZipfS: 0.6,
      siteHost: site,
      longTailHosts,
      longTailZipfS: 0,
    });
    const context: DimensionContext = { siteHost: site, ...sources };
    const counter = new TruthCounter();
    let month = new PendingUpdates();
    let monthStart = startOfMonth(first);
    for (let day = 0; day < AUDIENCE_DAYS; day++) {
      const dayStart = first + day * DAY_MS;
      if (startOfMonth(dayStart) !== monthStart) {
        monthlyDocuments += await insert(db, MONTHLY_COLLECTION, month);
        past.monthly.push(...month.compactableKeys().map((key) => key.id));
        month = new PendingUpdates();
        monthStart = startOfMonth(dayStart);
      }
      const batch = new CounterBatch({ siteTotals: true, dimensions });
      const visits = new Map<number, VisitState>();
      let previous: number | undefined;
      const from = Math.floor((day * settings.hits) / AUDIENCE_DAYS);
      const to = Math.floor(((day + 1) * settings.hits) / AUDIENCE_DAYS);
      for (let i = from; i < to; i++) {
        const rank = zipfPick(cdf, unitAt(6006, i));
        const page = pagePath(rank);
        const who = audience.hit(i);
        const values = deriveDimensions(
          { referrer: who.referrer, userAgent: who.userAgent, clientIp: who.clientIp, pageUrl: page },
          who.utm,
          context,
        );
        const at = dayStart + Math.floor(((i - from + unitAt(6007, i)) * DAY_MS) / (to - from));
        // Several pageviews per visit: a hit continues the previous hit's visitor's visit with this chance.
        const visitor = previous !== undefined && unitAt(6008, i) < CONTINUE_VISIT ? previous : who.visitorRank;
        previous = visitor;
        batch.add({ site, page, at, count: 1, visitor: splitmix64(5005, visitor), dimensions: values });
        const hit = { site, page, at, count: 1, dimensions: values, event: false };
        const visit = advanceVisit(visits.get(visitor), [hit], VISIT_TIMEOUT_MS);
        if (visit.state !== undefined) visits.set(visitor, visit.state);
        for (const delta of visit.deltas) batch.addVisitDelta(site, delta, dimensions);
        counter.add(day, rank, visitor, values.source);
      }
      dailyDocuments += await insert(db, DAILY_COLLECTION, batch.daily);
      past.daily.push(...batch.daily.compactableKeys().map((key) => key.id));
      month.absorb(batch.monthly);
    }
    monthlyDocuments += await insert(db, MONTHLY_COLLECTION, month);
    truth[site] = counter.truth();
  }
  const loadMs = elapsedMs(start);
  const compactStart = process.hrtime.bigint();
  let compactedDocuments = 0;
  for (const [level, collection] of [
    ['daily', DAILY_COLLECTION],
    ['monthly', MONTHLY_COLLECTION],
  ] as const) {
    const target = db.collection(collection);
    compactedDocuments += await compactPastPeriods(target, target, level, past[level], { targeting: 'shardKey' });
  }
  return {
    first,
    hitsPerSite: settings.hits,
    pages: settings.pages,
    visitorPool,
    dailyDocuments,
    monthlyDocuments,
    loadMs,
    compactedDocuments,
    compactMs: elapsedMs(compactStart),
    truth,
  };
}

/** A server's DimensionCounting with the default settings: one per process, admission decided across batches. */
export function serverDimensionCounting(): DimensionCounting {
  const defaults = loadConfig({}).dimensions;
  return new DimensionCounting({ maxValues: defaults.maxValues, visitorDimensions: defaults.visitors });
}

function startOfMonth(t: number): number {
  const date = new Date(t);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

async function insert(db: Db, collection: string, updates: PendingUpdates): Promise<number> {
  const operations = updates.toOperations('shardKey');
  for (let i = 0; i < operations.length; i += INSERT_CHUNK) {
    await db
      .collection(collection)
      .insertMany(operations.slice(i, i + INSERT_CHUNK).map(upsertedDocument), { ordered: false });
  }
  return operations.length;
}

/** Distinct visitors and sources as the hits go by. */
class TruthCounter {
  private readonly pages = Array.from({ length: DASHBOARD_PAGES }, () => new Set<number>());
  private readonly pageDays = Array.from({ length: DASHBOARD_PAGES }, () =>
    Array.from({ length: AUDIENCE_DAYS }, () => new Set<number>()),
  );
  private readonly site = new Set<number>();
  private readonly siteDays = Array.from({ length: AUDIENCE_DAYS }, () => new Set<number>());
  private readonly sources = new Map<number, Set<string>>(BREAKDOWN_SPANS.map((span) => [span, new Set()]));

  add(day: number, pageRank: number, visitor: number, source: string): void {
    if (pageRank < DASHBOARD_PAGES) {
      this.pages[pageRank]?.add(visitor);
      this.pageDays[pageRank]?.[day]?.add(visitor);
    }
    this.site.add(visitor);
    this.siteDays[day]?.add(visitor);
    for (const span of BREAKDOWN_SPANS) if (day >= AUDIENCE_DAYS - span) this.sources.get(span)?.add(source);
  }

  truth(): AudienceTruth {
    return {
      pageVisitors: this.pages.map((set) => set.size),
      pageDayVisitors: this.pageDays.map((days) => days.map((set) => set.size)),
      siteVisitors: this.site.size,
      siteDayVisitors: this.siteDays.map((set) => set.size),
      sources: Object.fromEntries([...this.sources].map(([span, set]) => [span, set.size])),
    };
  }
}
