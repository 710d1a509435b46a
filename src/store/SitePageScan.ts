/**
 * Reads every page document of one site on given dates, for ranking pages (topPages). A site with 100,000 pages
 * has 100,000 monthly documents a month: the ranking streams them through a cursor, projecting only the counters it
 * needs, and never gathers them in one document (a page→count map would pass 16 MB at ~8,000 pages of 2 KB paths
 * and be rewritten whole on every update). The `site_date` index makes each date a tight index range on MongoDB;
 * index keys never change after insert (updates only `$inc` counters), so it costs writes nothing after a
 * document's first upsert.
 */
import type { VisitCounterFields } from './visitCounters';
import type { Collection, Document } from 'mongodb';
import type { DailyStatsDocument } from './dailyStats';
import { dailyCollection } from './dailyStats';
import type { Database } from './connectDatabase';
import { ensureIndexes } from './ensureIndexes';
import type { MonthlyStatsDocument } from './monthlyStats';
import { monthlyCollection } from './monthlyStats';
import { SITE_TOTAL_PAGE } from '../domain/siteTotal';
import type { PackedSketch, StoredSketch } from './statsExtras';
import { translateDriverError } from './translateDriverError';
import { dailyDocumentId } from './dailyStats';
import { monthlyDocumentId } from './monthlyStats';
import { DAY_MS, startOfMonth } from '../time/buckets';
import type { CompactedLevel } from './compactPastPeriods';
import { EXACT_ID_READ_LIMIT, findByExactIds } from './findByExactIds';
import { findByIdList } from './findByIdList';
import { readableRollup } from './PageRollup';
import { dimensionValue } from '../domain/dimensions/dimensionKey';
import type { DocumentReads } from './WritePolicy';
import { decodePageDigest } from './pageDigest';
import type { PageDigestEntry } from './pageDigest';
import { findPageDigests, isCurrentDigest, pageDigestId, pageDigestsCollection } from './pageDigests';
import type { PageDigestDocument } from './pageDigests';
import { readRollupMarker, rollupDayId, rollupMonthId, rollupsCollection } from './pageRollups';
import type { PageRollupDocument } from './pageRollups';
import { rollupReadPlan } from './rollupReadPlan';
import type { MonthRollupCounts } from './rollupReadPlan';

export const SITE_DATE_INDEX = { key: { 'metadata.site': 1, 'metadata.date': 1 }, name: 'site_date' } as const;

/** What a scan reads: monthly `daily`, daily `hourly`, or daily `minute.<h>` for some hours. */
export type SitePageFields =
  | { readonly kind: 'monthly' }
  | { readonly kind: 'hourly' }
  | { readonly kind: 'minute'; readonly hours: ReadonlySet<number> };

export interface SitePageDocument {
  readonly page: string;
  /** metadata.date, epoch ms. */
  readonly date: number;
  readonly daily?: Record<string, unknown> | undefined;
  readonly hourly?: Record<string, unknown> | undefined;
  readonly minute?: Record<string, Record<string, unknown> | undefined> | undefined;
  /** The page's visitor sketch in both forms, when asked for (page goals, issue 28). */
  readonly v?: StoredSketch | undefined;
  readonly vz?: PackedSketch | undefined;
  /** Visit counters (issue 29), when asked for: monthly `vd`, daily `vh`. */
  readonly vd?: VisitCounterFields['vd'] | undefined;
  readonly vh?: VisitCounterFields['vh'] | undefined;
}

/** Periods answered by current page digests (pageDigests): each one's pages with their hits and packed sketches. */
export interface PageDigests {
  /** By UTC day; a day the site counts no hits on has no pages. */
  readonly days: ReadonlyMap<number, readonly PageDigestEntry[]>;
  /** By month start. */
  readonly months: ReadonlyMap<number, readonly PageDigestEntry[]>;
}

/** A page's document of one period: its page and the period's start (metadata.date), epoch ms. */
export interface PageDate {
  readonly page: string;
  readonly date: number;
}

export class SitePageScan {
  private readonly daily: Collection<DailyStatsDocument>;
  private readonly monthly: Collection<MonthlyStatsDocument>;
  private readonly digests: Collection<PageDigestDocument>;
  private readonly rollups: Collection<PageRollupDocument>;
  private readonly reads: DocumentReads;

  /** Called for each site total whose period was asked for without a current digest (CompactionNominations). */
  private readonly onMissingDigest: ((level: CompactedLevel, id: string, start: number) => void) | undefined;

  constructor(
    database: Database,
    options: { readonly onMissingDigest?: (level: CompactedLevel, id: string, start: number) => void } = {},
  ) {
    this.onMissingDigest = options.onMissingDigest;
    this.daily = dailyCollection(database.db);
    this.monthly = monthlyCollection(database.db);
    this.digests = pageDigestsCollection(database.db);
    this.rollups = rollupsCollection(database.db);
    this.reads = database.policy.reads;
  }

  /**
   * The page rollups of the site's UTC days (pageRollups): per day, its pages' hits where the day's rollup adds up,
   * else nothing (that day is ranked from the pages' documents). Days before the rollups' marker are read from the
   * site-day documents, as earlier versions wrote them (earlierPageRollups).
   */
  async pageRollups(site: string, days: readonly number[]): Promise<Map<number, Map<string, number>>> {
    return (await this.readRollups(site, days, false)).days;
  }

  /**
   * The same, with a month whose every day with hits lies among `days` read whole from its month rollup: a 30-day
   * ranking through today reads the current month's document and the days of the month before. `covered` holds the
   * days the answer counts (the others are to be read from the pages' documents); `pages` their hits per page.
   */
  async pageTotals(
    site: string,
    days: readonly number[],
  ): Promise<{ covered: Set<number>; pages: Map<string, number> }> {
    const read = await this.readRollups(site, days, true);
    const pages = new Map<string, number>();
    const covered = new Set<number>();
    const add = (from: Map<string, number>): void => {
      for (const [page, hits] of from) pages.set(page, (pages.get(page) ?? 0) + hits);
    };
    for (const [day, dayPages] of read.days) {
      covered.add(day);
      add(dayPages);
    }
    for (const [month, monthPages] of read.months) {
      for (const day of days) if (startOfMonth(day) === month) covered.add(day);
      add(monthPages);
    }
    return { covered, pages };
  }

  private async readRollups(
    site: string,
    days: readonly number[],
    wholeMonths: boolean,
  ): Promise<{ days: Map<number, Map<string, number>>; months: Map<number, Map<string, number>> }> {
    const complete = new Map<number, Map<string, number>>();
    const months = new Map<number, Map<string, number>>();
    if (days.length === 0) return { days: complete, months };
    const monthStarts = [...new Set(days.map((day) => startOfMonth(day)))];
    const valueOf = keyReader();
    try {
      const siteTotal = { 'metadata.site': site, 'metadata.page': SITE_TOTAL_PAGE };
      const rollups = this.rollups as unknown as Collection<Document>;
      const findDays = (list: readonly number[]): Promise<PageRollupDocument[]> =>
        this.findByIds(
          rollups,
          list.map((day) => rollupDayId(site, SITE_TOTAL_PAGE, day)),
          {},
          siteTotal,
        ) as Promise<PageRollupDocument[]>;
      // Days surely read by day, fetched beside the months: every day where no month is read whole, else the days of
      // a first month the range starts inside of ("the last 30 days"). One round trip where that guess holds.
      const ahead = wholeMonths ? days.filter((day) => startOfMonth(day) === monthStarts[0]) : days;
      const firstDay = Math.min(...days);
      const prefetched = wholeMonths && firstDay === startOfMonth(firstDay) ? [] : ahead;
      const [marker, found, early] = await Promise.all([
        readRollupMarker(this.rollups),
        this.findByIds(
          rollups,
          monthStarts.map((month) => rollupMonthId(site, SITE_TOTAL_PAGE, month)),
          {},
          siteTotal,
        ) as Promise<PageRollupDocument[]>,
        findDays(prefetched),
      ]);
      const monthDocs = new Map<number, { counts: MonthRollupCounts; pages: Map<string, number> | undefined }>();
      for (const doc of found) {
        const pages = readableRollup(doc.t, doc.p, valueOf);
        const total = typeof doc.t === 'number' ? doc.t : 0;
        monthDocs.set(dateOf(doc), { counts: { total, days: doc.d ?? {}, complete: pages !== undefined }, pages });
      }
      const counts = new Map([...monthDocs].map(([month, doc]) => [month, doc.counts]));
      const plan = rollupReadPlan(days, marker, counts, { wholeMonths });
      for (const month of plan.wholeMonths) months.set(month, monthDocs.get(month)?.pages as Map<string, number>);
      for (const day of plan.emptyDays) complete.set(day, new Map());
      const fetched = new Set(prefetched);
      const [late, earlier] = await Promise.all([
        findDays(plan.dayDocuments.filter((day) => !fetched.has(day))),
        this.earlierPageRollups(site, plan.earlierDays, valueOf),
      ]);
      const wanted = new Set(plan.dayDocuments);
      for (const doc of [...early, ...late]) {
        if (!wanted.has(dateOf(doc))) continue;
        const pages = readableRollup(doc.t, doc.p, valueOf);
        if (pages !== undefined) complete.set(dateOf(doc), pages);
      }
      for (const [day, pages] of earlier) complete.set(day, pages);
      return { days: complete, months };
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  /**
   * The page rollup of days written before `stats.rollups` (PageRollup's `p` of the site-day documents): per day, its
   * pages' hits when the rollup adds up to the day's total, else nothing. A day without a site-day document is empty
   * when the site-month document counts nothing on it; without that either (data from before site totals, or a day
   * whose daily documents retention dropped) it is left to the pages' documents too. One find per collection.
   */
  private async earlierPageRollups(
    site: string,
    days: readonly number[],
    valueOf: (key: string) => string,
  ): Promise<Map<number, Map<string, number>>> {
    const complete = new Map<number, Map<string, number>>();
    if (days.length === 0) return complete;
    const months = [...new Set(days.map((day) => startOfMonth(day)))];
    const siteTotal = { 'metadata.site': site, 'metadata.page': SITE_TOTAL_PAGE };
    const [dayDocs, monthDocs] = await Promise.all([
      this.findByIds(
        this.daily as unknown as Collection<Document>,
        days.map((day) => dailyDocumentId(site, SITE_TOTAL_PAGE, day)),
        { _id: 0, 'metadata.date': 1, daily: 1, p: 1 },
        siteTotal,
      ),
      this.findByIds(
        this.monthly as unknown as Collection<Document>,
        months.map((month) => monthlyDocumentId(site, SITE_TOTAL_PAGE, month)),
        { _id: 0, 'metadata.date': 1, daily: 1 },
        siteTotal,
      ),
    ]);
    const monthTotals = new Map(monthDocs.map((doc) => [dateOf(doc), doc.daily as Record<string, unknown>]));
    for (const doc of dayDocs) {
      const pages = readableRollup(doc.daily, doc.p as Record<string, unknown> | undefined, valueOf);
      if (pages !== undefined) complete.set(dateOf(doc), pages);
    }
    const written = new Set(dayDocs.map(dateOf));
    for (const day of days) {
      if (written.has(day)) continue;
      const month = monthTotals.get(startOfMonth(day));
      if (month !== undefined && !month[new Date(day).getUTCDate()]) complete.set(day, new Map());
    }
    return complete;
  }

  /**
   * The page digests of the site's UTC `days` and `months` that still match the site's counts (pageDigests): one
   * find of the digests and one of the site-month documents whose hits per day check them. A day the site-month
   * document counts no hits on has no pages, digest or not (as in pageRollups); a period left out of the answer is
   * to be read from the pages' documents.
   */
  async pageDigests(
    site: string,
    periods: { readonly days: readonly number[]; readonly months: readonly number[] },
  ): Promise<PageDigests> {
    const days = new Map<number, readonly PageDigestEntry[]>();
    const months = new Map<number, readonly PageDigestEntry[]>();
    if (periods.days.length + periods.months.length === 0) return { days, months };
    const checked = [...new Set([...periods.days.map((day) => startOfMonth(day)), ...periods.months])];
    try {
      const [digests, monthDocs] = await Promise.all([
        findPageDigests(this.digests, [
          ...periods.days.map((day) => pageDigestId(site, 'day', day)),
          ...periods.months.map((month) => pageDigestId(site, 'month', month)),
        ]),
        this.findByIds(
          this.monthly as unknown as Collection<Document>,
          checked.map((month) => monthlyDocumentId(site, SITE_TOTAL_PAGE, month)),
          { _id: 0, 'metadata.date': 1, daily: 1 },
          { 'metadata.site': site, 'metadata.page': SITE_TOTAL_PAGE },
        ),
      ]);
      const monthDaily = new Map(monthDocs.map((doc) => [dateOf(doc), (doc.daily ?? {}) as Record<string, unknown>]));
      const current = new Map<string, PageDigestDocument>();
      for (const digest of digests) {
        const counts = monthDaily.get(startOfMonth(digest.metadata.date.getTime()));
        if (counts !== undefined && isCurrentDigest(digest, counts)) current.set(digest._id, digest);
      }
      const read = (id: string): readonly PageDigestEntry[] | undefined => {
        const digest = current.get(id);
        if (digest === undefined) return undefined;
        try {
          return decodePageDigest(digest.z);
        } catch {
          // Bytes this version cannot read: that period is read from the pages' documents.
          return undefined;
        }
      };
      const missing = (level: CompactedLevel, start: number): void =>
        this.onMissingDigest?.(level, pageDigestId(site, level === 'daily' ? 'day' : 'month', start), start);
      for (const day of periods.days) {
        const counts = monthDaily.get(startOfMonth(day));
        if (counts === undefined) continue;
        const entries = counts[new Date(day).getUTCDate()] ? read(pageDigestId(site, 'day', day)) : [];
        if (entries !== undefined) days.set(day, entries);
        else missing('daily', day);
      }
      for (const month of periods.months) {
        const entries = read(pageDigestId(site, 'month', month));
        if (entries !== undefined) {
          months.set(month, entries);
        } else if (monthDaily.has(month)) {
          // A month's digest is made of its days': they are nominated with it.
          for (let day = month; startOfMonth(day) === month; day += DAY_MS) missing('daily', day);
          missing('monthly', month);
        }
      }
      return { days, months };
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  /**
   * Documents by id, as the policy reads (CounterStore.read); MongoDB gets `shardFilter` too, so the read targets
   * the site's shard.
   */
  private findByIds(
    collection: Collection<Document>,
    ids: string[],
    projection: Document,
    shardFilter: Document,
  ): Promise<Document[]> {
    if (ids.length === 0) return Promise.resolve([]);
    if (this.reads === 'idList') return findByIdList(collection, ids, projection);
    if (this.reads === 'exactIds' && ids.length <= EXACT_ID_READ_LIMIT) {
      return findByExactIds(collection, ids, projection);
    }
    return collection.find({ _id: { $in: ids }, ...shardFilter } as Document, { projection }).toArray();
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.daily, [SITE_DATE_INDEX]);
    await ensureIndexes(this.monthly, [SITE_DATE_INDEX]);
  }

  /**
   * Calls `onDocument` with the visitor sketches of the named page documents of `site` (page goals, issue 28): one
   * find by id list per collection, so a few pages cost a few documents' reads instead of a scan of the site's
   * documents on those dates (on FerretDB a filter other than `_id` decodes every row of the table). Resolves false,
   * having read nothing, where the engine reads ids one by one (stock FerretDB) and there are too many of them: the
   * caller scans instead.
   */
  async forEachPageById(
    site: string,
    pages: { readonly monthly: readonly PageDate[]; readonly daily: readonly PageDate[] },
    onDocument: (doc: SitePageDocument) => void,
  ): Promise<boolean> {
    const count = pages.monthly.length + pages.daily.length;
    if (this.reads === 'exactIds' && count > EXACT_ID_READ_LIMIT) return false;
    const projection = { _id: 0, 'metadata.page': 1, 'metadata.date': 1, v: 1, vz: 1 };
    try {
      const found = await Promise.all([
        this.findByIds(
          this.monthly as unknown as Collection<Document>,
          pages.monthly.map(({ page, date }) => monthlyDocumentId(site, page, date)),
          projection,
          { 'metadata.site': site },
        ),
        this.findByIds(
          this.daily as unknown as Collection<Document>,
          pages.daily.map(({ page, date }) => dailyDocumentId(site, page, date)),
          projection,
          { 'metadata.site': site },
        ),
      ]);
      for (const doc of found.flat()) {
        const metadata = doc.metadata as { page: string; date: Date };
        onDocument({
          page: metadata.page,
          date: metadata.date.getTime(),
          v: doc.v as SitePageDocument['v'],
          vz: doc.vz as SitePageDocument['vz'],
        });
      }
      return true;
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  /** Calls `onDocument` for every page document (not the site total) of `site` dated at one of `dates`: one find. */
  async forEachPage(
    site: string,
    dates: readonly number[],
    fields: SitePageFields,
    onDocument: (doc: SitePageDocument) => void,
    options: { readonly visitors?: boolean; readonly visits?: boolean } = {},
  ): Promise<void> {
    if (dates.length === 0) return;
    const collection = (fields.kind === 'monthly' ? this.monthly : this.daily) as unknown as Collection<Document>;
    const projection: Document = { _id: 0, 'metadata.page': 1, 'metadata.date': 1 };
    if (fields.kind === 'monthly') projection.daily = 1;
    else if (fields.kind === 'hourly') projection.hourly = 1;
    else for (const hour of fields.hours) projection[`minute.${hour}`] = 1;
    if (options.visitors === true) Object.assign(projection, { v: 1, vz: 1 });
    if (options.visits === true) projection[fields.kind === 'monthly' ? 'vd' : 'vh'] = 1;
    try {
      const cursor = collection.find(
        { 'metadata.site': site, 'metadata.date': { $in: dates.map((d) => new Date(d)) } },
        { projection, batchSize: 10_000 },
      );
      for await (const doc of cursor) {
        const metadata = doc.metadata as { page: string; date: Date };
        if (metadata.page === SITE_TOTAL_PAGE) continue;
        onDocument({
          page: metadata.page,
          date: metadata.date.getTime(),
          daily: doc.daily as SitePageDocument['daily'],
          hourly: doc.hourly as SitePageDocument['hourly'],
          minute: doc.minute as SitePageDocument['minute'],
          v: doc.v as SitePageDocument['v'],
          vz: doc.vz as SitePageDocument['vz'],
          vd: doc.vd as SitePageDocument['vd'],
          vh: doc.vh as SitePageDocument['vh'],
        });
      }
    } catch (error) {
      throw translateDriverError(error);
    }
  }
}

/** Page keys read back once each: most pages recur day after day. */
function keyReader(): (key: string) => string {
  const values = new Map<string, string>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined) {
      value = dimensionValue(key);
      values.set(key, value);
    }
    return value;
  };
}

function dateOf(doc: Document): number {
  return (doc.metadata as { date: Date }).date.getTime();
}
