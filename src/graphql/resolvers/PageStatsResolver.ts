import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { parseSeriesRequest } from '../../query/parseSeriesRequest';
import type { Context } from '../Context';
import { Granularity } from '../types/GranularityEnum';
import { PageStatsType } from '../types/PageStatsType';
import { TimeRangeInput } from '../types/TimeRangeInput';

@Resolver()
export class PageStatsResolver {
  @Query(() => PageStatsType, {
    nullable: true,
    description:
      'Hits on one page as a dense series over the buckets that intersect [range.from, range.to). Null (with an error) when this one series fails, so a dashboard keeps its other series.',
  })
  async pageStats(
    @Ctx() { services, loaders }: Context,
    @Arg('site', { description: 'Site identifier.' }) site: string,
    @Arg('page', { description: 'URL path starting with "/".' }) page: string,
    @Arg('range', () => TimeRangeInput, { description: 'Half-open range [from, to).' }) range: TimeRangeInput,
    @Arg('granularity', () => Granularity, { description: 'Bucket size.' }) granularity: Granularity,
  ): Promise<PageStatsType> {
    const request = parseSeriesRequest(
      { site, page, granularity, from: range.from, to: range.to },
      services.seriesLimits,
      services.clock(),
    );
    const series = await loaders.series.load(request);
    return {
      site: request.site,
      page: request.page,
      granularity: request.granularity,
      from: new Date(series.from),
      to: new Date(series.to),
      total: series.total,
      points: series.points.map((point) => ({ t: new Date(point.t), hits: point.hits })),
      values: series.points.map((point) => point.hits),
    };
  }
}
