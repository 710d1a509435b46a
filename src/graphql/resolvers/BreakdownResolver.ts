/**
 * breakdown: parse, load the dimension's totals through the request's DataLoader (in the same finds as the request's
 * series and other breakdowns), rank and page them, map. Per-value sketches are read only when the query selects
 * `visitors`, per-value visit counters only when it selects a visit figure (site totals keep them).
 */
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, Info, Int, Query, Resolver } from 'type-graphql';
import { VISIT_FIGURE_NAMES } from '../../query/visitCounts';
import type { Context } from '../Context';
import { selectsField } from '../selectsField';
import { BreakdownConnectionType } from '../types/BreakdownConnectionType';
import { DimensionEnum } from '../types/DimensionEnum';
import { TimeRangeInput } from '../types/TimeRangeInput';
import { toConnection } from './EventResolver';

/** Where a breakdown selection shows visit figures. */
const VISIT_FIGURE_PATHS = VISIT_FIGURE_NAMES.map((field) => ['edges', 'node', field]);

@Resolver()
export class BreakdownResolver {
  @Query(() => BreakdownConnectionType, {
    nullable: true,
    description:
      'One dimension\'s values on a site (or one page) ranked by hits over the UTC days covering the range\'s local days, with an exact count of values and the "(other)" remainder. Read from the same pre-aggregated day and month documents as the series, in the same batched finds. Null (with an error) when this one breakdown fails, so a dashboard keeps its other panels.',
  })
  async breakdown(
    @Ctx() { services, loaders }: Context,
    @Arg('site', { description: 'Site identifier.' }) site: string,
    @Arg('page', () => String, {
      nullable: true,
      description: 'URL path starting with "/"; absent: the whole site (the site totals, which also keep visitors).',
    })
    page: string | null,
    @Arg('dimension', () => DimensionEnum, { description: 'The dimension to break down.' }) dimension: DimensionEnum,
    @Arg('range', () => TimeRangeInput, {
      description:
        'Half-open range [from, to); every local day it touches is counted whole, widened to UTC days (see `from` and `to` of the result).',
    })
    range: TimeRangeInput,
    @Arg('timeZone', () => String, {
      nullable: true,
      description: 'IANA time zone whose days the range is rounded to, e.g. "Europe/Berlin". Default UTC.',
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
    @Arg('event', () => String, {
      nullable: true,
      description:
        "A custom event name: break down that event's occurrences (conversions by source, country, …) instead of hits; `visitors` is null then.",
    })
    event?: string | null,
  ): Promise<BreakdownConnectionType> {
    if (event != null) {
      const span = services.events.parseSpan({ site, page, from: range.from, to: range.to, timeZone }, 'breakdown');
      const paging = services.events.parsePaging(first, after);
      const totals = await loaders.events.load(services.events.breakdownSpan(span, event, dimension));
      return { dimension, ...toConnection(services.events.breakdown(totals, event, dimension, paging)) };
    }
    const parsed = services.breakdown.parse({
      site,
      page,
      dimension,
      from: range.from,
      to: range.to,
      timeZone,
      first,
      after,
      visitors: selectsField(info, [['edges', 'node', 'visitors']]),
      visits: selectsField(info, VISIT_FIGURE_PATHS),
      now: services.clock(),
    });
    const result = services.breakdown.rank(await loaders.stats.breakdown(parsed.request), parsed);
    return { dimension, ...toConnection(result) };
  }
}
