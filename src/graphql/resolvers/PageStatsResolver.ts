/**
 * pageStats and siteStats: parse, load the series (and its comparison) through the request's DataLoader, map.
 * Visitors are read only when the query selects them somewhere below the field (range, points or comparison).
 */
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, Info, Query, Resolver } from 'type-graphql';
import { BadUserInputError } from '../../errors/BadUserInputError';
import { comparisonRequest } from '../../query/comparisonRequest';
import type { EventSpan } from '../../query/events/EventLoader';
import { eventSeries, parseEventSeries } from '../../query/events/eventSeries';
import { checkDayBuckets } from '../../query/parseDimensionFilter';
import { parseSeriesRequest } from '../../query/parseSeriesRequest';
import type { Series, SeriesRequest } from '../../query/Series';
import { VISIT_FIGURE_NAMES } from '../../query/visitCounts';
import type { Context } from '../Context';
import { selectsField } from '../selectsField';
import type { SelectionInfo } from '../selectsField';
import { toPageStats } from '../toPageStats';
import { Comparison } from '../types/ComparisonEnum';
import { DimensionFilterInput } from '../types/DimensionFilterInput';
import { Granularity } from '../types/GranularityEnum';
import { PageStatsType } from '../types/PageStatsType';
import { TimeRangeInput } from '../types/TimeRangeInput';

const TIME_ZONE = {
  nullable: true,
  description:
    'IANA time zone the buckets follow, e.g. "Europe/Berlin": DAY, WEEK and MONTH start at local midnight, Monday and the 1st; HOUR and MINUTE follow the local wall clock (23 or 25 hour buckets on DST change days). Default UTC.',
} as const;
const COMPARE = {
  nullable: true,
  description: 'Also return an earlier series (in `comparison`), read in the same batched query as this one.',
} as const;
const FILTER = {
  nullable: true,
  description:
    'Only the hits with this value of one dimension (e.g. SOURCE "Google"): DAY, WEEK or MONTH buckets starting at UTC midnight. Visitors of a filtered series are kept for site totals of the dimensions in DIMENSION_VISITORS only (null elsewhere).',
} as const;

const EVENT = {
  nullable: true,
  description:
    "A custom event name: the series of that event's occurrences (and its distinct visitors) instead of hits. DAY, WEEK or MONTH buckets starting at UTC midnight; not with `filter`.",
} as const;

/** Where a PageStats selection shows visitors. */
const VISITOR_PATHS = [
  ['visitors'],
  ['visitorsFrom'],
  ['visitorsTo'],
  ['points', 'visitors'],
  ['comparison', 'visitors'],
  ['comparison', 'visitorsFrom'],
  ['comparison', 'visitorsTo'],
  ['comparison', 'visitorsChange'],
  ['comparison', 'points', 'visitors'],
] as const;

/** Where a PageStats selection shows visit figures. */
const VISIT_PATHS = VISIT_FIGURE_NAMES.flatMap((field) => [
  [field],
  ['points', field],
  ['comparison', field],
  ['comparison', 'points', field],
]);

@Resolver()
export class PageStatsResolver {
  @Query(() => PageStatsType, {
    nullable: true,
    description:
      'Hits on one page as a dense series over the buckets that intersect [range.from, range.to). Null (with an error) when this one series fails, so a dashboard keeps its other series.',
  })
  async pageStats(
    @Ctx() context: Context,
    @Arg('site', { description: 'Site identifier.' }) site: string,
    @Arg('page', { description: 'URL path starting with "/".' }) page: string,
    @Arg('range', () => TimeRangeInput, { description: 'Half-open range [from, to).' }) range: TimeRangeInput,
    @Arg('granularity', () => Granularity, { description: 'Bucket size.' }) granularity: Granularity,
    @Arg('timeZone', () => String, TIME_ZONE) timeZone: string | null,
    @Arg('compare', () => Comparison, COMPARE) compare: Comparison | null,
    @Arg('filter', () => DimensionFilterInput, FILTER) filter: DimensionFilterInput | null,
    @Info() info: GraphQLResolveInfo,
    @Arg('event', () => String, EVENT) event?: string | null,
  ): Promise<PageStatsType> {
    const input = { site, page, granularity, from: range.from, to: range.to, timeZone, filter };
    return loadStats(context, input, compare, info, event);
  }

  @Query(() => PageStatsType, {
    nullable: true,
    description:
      'Hits on a whole site (every page summed) as a dense series, read from pre-aggregated site-level documents written in the same flush as the pages: as cheap as one page. MINUTE to MONTH (SECOND is kept per page only). `page` is the empty string.',
  })
  async siteStats(
    @Ctx() context: Context,
    @Arg('site', { description: 'Site identifier.' }) site: string,
    @Arg('range', () => TimeRangeInput, { description: 'Half-open range [from, to).' }) range: TimeRangeInput,
    @Arg('granularity', () => Granularity, { description: 'Bucket size (MINUTE to MONTH).' }) granularity: Granularity,
    @Arg('timeZone', () => String, TIME_ZONE) timeZone: string | null,
    @Arg('compare', () => Comparison, COMPARE) compare: Comparison | null,
    @Arg('filter', () => DimensionFilterInput, FILTER) filter: DimensionFilterInput | null,
    @Info() info: GraphQLResolveInfo,
    @Arg('event', () => String, EVENT) event?: string | null,
  ): Promise<PageStatsType> {
    const input = { site, granularity, from: range.from, to: range.to, timeZone, filter };
    return loadStats(context, input, compare, info, event);
  }
}

async function loadStats(
  { services, loaders, notes }: Context,
  input: Parameters<typeof parseSeriesRequest>[0],
  compare: Comparison | null,
  info: SelectionInfo,
  event: string | null | undefined,
): Promise<PageStatsType> {
  const visitors = selectsField(info, VISITOR_PATHS);
  if (event != null && input.filter != null) {
    throw new BadUserInputError('event and filter cannot be combined: an event series is not broken down', 'filter');
  }
  const visits = selectsField(info, VISIT_PATHS);
  const request = parseSeriesRequest({ ...input, visitors, visits }, services.seriesLimits, services.clock());
  const requests: SeriesRequest[] = compare ? [request, comparisonRequest(request, compare)] : [request];
  if (event != null) {
    const key = parseEventSeries(requests, event);
    const load = (span: EventSpan) => loaders.events.load(span);
    const [series, compared] = await Promise.all(requests.map((r) => eventSeries(r, key, load)));
    return toPageStats(series as Series, compare && compared ? { kind: compare, series: compared } : undefined);
  }
  if (request.filter && requests[1]) checkDayBuckets(requests[1], 'the comparison');
  // One loadMany: the comparison joins the same DataLoader batch, so it costs no extra round trip.
  const [series, compared] = (await loaders.stats.series(requests)).map(orThrow);
  for (const one of [series, compared]) if (one) notes.noteRetention(one);
  return toPageStats(series as Series, compare && compared ? { kind: compare, series: compared } : undefined);
}

function orThrow(result: Series | Error): Series {
  if (result instanceof Error) throw result;
  return result;
}
