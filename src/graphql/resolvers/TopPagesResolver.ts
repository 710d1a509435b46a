/**
 * topPages: a site's pages ranked by hits over whole days of a range, as a Relay connection. When the query selects
 * `visitors`, the returned pages' visitors are read after ranking, in one batch through the request's DataLoader.
 */
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, Info, Int, Query, Resolver } from 'type-graphql';
import type { Context } from '../Context';
import { selectsField } from '../selectsField';
import { TimeRangeInput } from '../types/TimeRangeInput';
import { TopPagesConnectionType } from '../types/TopPagesConnectionType';
import { TopPagesOrder } from '../types/TopPagesOrderEnum';

@Resolver()
export class TopPagesResolver {
  @Query(() => TopPagesConnectionType, {
    description:
      "A site's pages ranked by their hits in the days (in `timeZone`) that intersect the range, most hits first, ties by page path. Counts equal the pages' DAY series totals over the same range.",
  })
  async topPages(
    @Ctx() { services, loaders }: Context,
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
    @Info() info: GraphQLResolveInfo,
    @Arg('by', () => TopPagesOrder, {
      defaultValue: TopPagesOrder.HITS,
      description:
        'Rank by HITS (default), or by ENTRIES or EXITS: the entry and exit pages of visits (issue 29); `hits` is then that count. ENTRIES and EXITS need a time zone whose offset is whole hours.',
    })
    by: TopPagesOrder,
  ): Promise<TopPagesConnectionType> {
    const result = await services.topPages.topPages({
      site,
      from: range.from,
      to: range.to,
      timeZone,
      first,
      after,
      now: services.clock(),
      by,
    });
    const { visitorsFrom, visitorsTo } = result;
    const visitors =
      selectsField(info, [['edges', 'node', 'visitors']]) && !result.visitorsDropped
        ? await loaders.stats.spanVisitors(
            result.edges.map(({ node }) => ({ site, page: node.page, from: visitorsFrom, to: visitorsTo })),
          )
        : [];
    return {
      edges: result.edges.map((edge, i) => {
        const counted = visitors[i];
        return {
          ...edge,
          node: { ...edge.node, visitors: counted && !(counted instanceof Error) ? counted.visitors : null },
        };
      }),
      pageInfo: result.pageInfo,
      totalCount: result.totalCount,
      from: new Date(result.from),
      to: new Date(result.to),
      visitorsFrom: new Date(visitorsFrom),
      visitorsTo: new Date(visitorsTo),
    };
  }
}
