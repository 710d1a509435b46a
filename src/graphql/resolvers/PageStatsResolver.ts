/** pageStats and siteStats: parse, load the series (and its comparison) through the request's DataLoader, map. */
import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { comparisonRequest } from '../../query/comparisonRequest';
import { parseSeriesRequest } from '../../query/parseSeriesRequest';
import type { Series, SeriesRequest } from '../../query/Series';
import type { Context } from '../Context';
import { toPageStats } from '../toPageStats';
import { Comparison } from '../types/ComparisonEnum';
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
  ): Promise<PageStatsType> {
    return loadStats(context, { site, page, granularity, from: range.from, to: range.to, timeZone }, compare);
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
  ): Promise<PageStatsType> {
    return loadStats(context, { site, granularity, from: range.from, to: range.to, timeZone }, compare);
  }
}

async function loadStats(
  { services, loaders }: Context,
  input: Parameters<typeof parseSeriesRequest>[0],
  compare: Comparison | null,
): Promise<PageStatsType> {
  const request = parseSeriesRequest(input, services.seriesLimits, services.clock());
  const requests: SeriesRequest[] = compare ? [request, comparisonRequest(request, compare)] : [request];
  // One loadMany: the comparison joins the same DataLoader batch, so it costs no extra round trip.
  const [series, compared] = (await loaders.stats.series(requests)).map(orThrow);
  return toPageStats(series as Series, compare && compared ? { kind: compare, series: compared } : undefined);
}

function orThrow(result: Series | Error): Series {
  if (result instanceof Error) throw result;
  return result;
}
