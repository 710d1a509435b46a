/**
 * The batch behind the request's DataLoader: plans every requested series, breakdown and span of visitors (a
 * ranking's page of results), sends one find per source (monthly, daily-hourly, daily-minute, seconds) for the whole
 * batch, with one projection holding every field any of them needs (counters, `v`, `d`, `dv`), and answers each from
 * the documents. Results come back in key order; a failed source fails only the reads that needed it.
 */
import type { DailyStatsDocument } from '../store/dailyStats';
import type { MonthlyStatsDocument } from '../store/monthlyStats';
import type { SecondStatsDocument } from '../store/secondStats';
import type { SeriesDocumentRange } from '../store/SeriesDocumentRange';
import type { ExtraFields, StatsExtras } from '../store/statsExtras';
import type { BreakdownRequest, BreakdownTotals } from './Breakdown';
import type { DocumentLookup } from './DocumentLookup';
import { fillSeries } from './fillSeries';
import { mergeExtraFields } from './mergeExtraFields';
import { planBreakdown } from './planBreakdown';
import type { BreakdownPlan } from './planBreakdown';
import { planSeries } from './planSeries';
import type { SeriesPlan } from './planSeries';
import type { Series, SeriesRequest, SpanVisitors } from './Series';
import type { SeriesRead, SeriesSource } from './SeriesRead';
import type { SeriesReader } from './SeriesReader';
import { fillSpanVisitors, planSpanVisitors } from './spanVisitors';
import type { SpanVisitorsPlan, SpanVisitorsRequest } from './spanVisitors';
import { sumBreakdown } from './sumBreakdown';

export type StatsRead =
  | { readonly kind: 'series'; readonly request: SeriesRequest }
  | { readonly kind: 'breakdown'; readonly request: BreakdownRequest }
  | { readonly kind: 'visitors'; readonly request: SpanVisitorsRequest };

export type StatsAnswer = Series | BreakdownTotals | SpanVisitors;

type Doc = (DailyStatsDocument | MonthlyStatsDocument | SecondStatsDocument) & StatsExtras;
/** Documents by site and page (pageKey), then by the start of their period. */
type Index = Map<string, Map<number, Doc>>;

type Plan =
  | { readonly kind: 'series'; readonly plan: SeriesPlan }
  | { readonly kind: 'breakdown'; readonly plan: BreakdownPlan }
  | { readonly kind: 'visitors'; readonly plan: SpanVisitorsPlan };

export async function loadStats(
  reader: SeriesReader,
  reads: readonly StatsRead[],
): Promise<Array<StatsAnswer | Error>> {
  const plans: Array<Plan | Error> = reads.map((read) => {
    try {
      switch (read.kind) {
        case 'series':
          return { kind: read.kind, plan: planSeries(read.request) };
        case 'breakdown':
          return { kind: read.kind, plan: planBreakdown(read.request) };
        case 'visitors':
          return { kind: read.kind, plan: planSpanVisitors(read.request) };
      }
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  });
  const indexes = await fetchSources(
    reader,
    plans.flatMap((plan) => (plan instanceof Error ? [] : [plan.plan])),
  );
  return reads.map((read, i) => {
    const plan = plans[i] as Plan | Error;
    if (plan instanceof Error) return plan;
    for (const { source } of plan.plan.reads) {
      const index = indexes.get(source);
      if (index instanceof Error) return index;
    }
    const lookup = lookupFor(indexes, read.request.site, read.request.page);
    switch (plan.kind) {
      case 'series':
        return fillSeries(read.request as SeriesRequest, plan.plan, lookup);
      case 'breakdown':
        return sumBreakdown(read.request as BreakdownRequest, plan.plan, lookup);
      case 'visitors':
        return fillSpanVisitors(read.request as SpanVisitorsRequest, plan.plan, lookup);
    }
  });
}

function lookupFor(indexes: ReadonlyMap<SeriesSource, Index | Error>, site: string, page: string): DocumentLookup {
  // Looked up once per bucket: the page's key is built once, dates stay numbers.
  const key = pageKey(site, page);
  const find = (source: SeriesSource, date: number): Doc | undefined => {
    const index = indexes.get(source);
    return index instanceof Map ? index.get(key)?.get(date) : undefined;
  };
  return {
    daily: (day) => find('hourly', day) as (DailyStatsDocument & StatsExtras) | undefined,
    minutes: (day) => find('minute', day) as DailyStatsDocument | undefined,
    monthly: (month) => find('monthly', month) as (MonthlyStatsDocument & StatsExtras) | undefined,
    seconds: (minute) => find('seconds', minute) as (SecondStatsDocument & StatsExtras) | undefined,
  };
}

interface SourceRead {
  readonly ranges: SeriesDocumentRange[];
  readonly extras: Array<ExtraFields | undefined>;
}

/** One find per source the plans need, all in parallel; a source that fails maps to its Error. */
async function fetchSources(
  reader: SeriesReader,
  plans: ReadonlyArray<{ readonly reads: readonly SeriesRead[]; readonly hours: ReadonlySet<number> }>,
): Promise<Map<SeriesSource, Index | Error>> {
  const sources = new Map<SeriesSource, SourceRead>();
  const hours = new Set<number>();
  for (const plan of plans) {
    for (const read of plan.reads) {
      let source = sources.get(read.source);
      if (!source) sources.set(read.source, (source = { ranges: [], extras: [] }));
      source.ranges.push(...read.ranges);
      source.extras.push(read.extra);
    }
    plan.hours.forEach((h) => hours.add(h));
  }
  const indexes = new Map<SeriesSource, Index | Error>();
  await Promise.all(
    [...sources].map(async ([source, { ranges, extras }]) => {
      try {
        const extra = mergeExtraFields(extras);
        indexes.set(source, indexByPageAndDate(await fetchSource(reader, source, ranges, hours, extra)));
      } catch (error) {
        indexes.set(source, error instanceof Error ? error : new Error(String(error)));
      }
    }),
  );
  return indexes;
}

function fetchSource(
  reader: SeriesReader,
  source: SeriesSource,
  ranges: SeriesDocumentRange[],
  hours: ReadonlySet<number>,
  extra: ExtraFields | undefined,
): Promise<Doc[]> {
  switch (source) {
    case 'monthly':
      return reader.findMonthly(ranges, extra);
    case 'seconds':
      return reader.findSeconds(ranges, extra);
    case 'hourly':
      return reader.findDaily(ranges, { kind: 'hourly' }, extra);
    case 'minute':
      // One projection for the batch: the union of the hours any series needs minutes of.
      return reader.findDaily(ranges, { kind: 'minute', hours }, extra);
  }
}

function indexByPageAndDate(docs: readonly Doc[]): Index {
  const index: Index = new Map();
  for (const doc of docs) {
    const key = pageKey(doc.metadata.site, doc.metadata.page);
    let byDate = index.get(key);
    if (byDate === undefined) index.set(key, (byDate = new Map()));
    byDate.set(doc.metadata.date.getTime(), doc);
  }
  return index;
}

function pageKey(site: string, page: string): string {
  return `${site}\u0000${page}`;
}
