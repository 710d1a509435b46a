/** topPages: a site's pages ranked by hits over whole days of a range, as a Relay connection. */
import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { Context } from '../Context';
import { TimeRangeInput } from '../types/TimeRangeInput';
import { TopPagesConnectionType } from '../types/TopPagesConnectionType';

@Resolver()
export class TopPagesResolver {
  @Query(() => TopPagesConnectionType, {
    description:
      "A site's pages ranked by their hits in the days (in `timeZone`) that intersect the range, most hits first, ties by page path. Counts equal the pages' DAY series totals over the same range.",
  })
  async topPages(
    @Ctx() { services }: Context,
    @Arg('site', { description: 'Site identifier.' }) site: string,
    @Arg('range', () => TimeRangeInput, {
      description: 'Half-open range [from, to); every day it touches is counted whole.',
    })
    range: TimeRangeInput,
    @Arg('timeZone', () => String, {
      nullable: true,
      description: 'IANA time zone whose days are counted, e.g. "America/Los_Angeles". Default UTC.',
    })
    timeZone: string | null,
    @Arg('first', () => Int, { defaultValue: 10, description: 'Page size: 1 to TOP_PAGES_MAX_PAGE (default 10).' })
    first: number,
    @Arg('after', () => String, {
      nullable: true,
      description: 'Continue after this cursor (an edge cursor or pageInfo.endCursor of the same query).',
    })
    after: string | null,
  ): Promise<TopPagesConnectionType> {
    const result = await services.topPages.topPages({ site, from: range.from, to: range.to, timeZone, first, after });
    return {
      edges: result.edges,
      pageInfo: result.pageInfo,
      totalCount: result.totalCount,
      from: new Date(result.from),
      to: new Date(result.to),
    };
  }
}
