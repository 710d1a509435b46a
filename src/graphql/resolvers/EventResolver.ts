/**
 * events, properties and conversions (issue 28): parse, load the span's event documents through the request's
 * EventLoader (one find per event collection for every such field of the request), rank or sum, map.
 */
import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import type { BreakdownResult } from '../../query/BreakdownQuery';
import { SITE_TOTAL_PAGE } from '../../domain/siteTotal';
import { visitFiguresOf } from '../../query/visitCounts';
import type { Context } from '../Context';
import { ConversionType } from '../types/ConversionType';
import { EventConnectionType } from '../types/EventConnectionType';
import { GoalInput } from '../types/GoalInput';
import { TimeRangeInput } from '../types/TimeRangeInput';

const PAGE_DESCRIPTION = 'URL path starting with "/"; absent: the whole site.';
const RANGE_DESCRIPTION =
  'Half-open range [from, to); every local day it touches is counted whole, widened to UTC days (see `from` and `to`).';
const ZONE_DESCRIPTION = 'IANA time zone whose days the range is rounded to, e.g. "Europe/Berlin". Default UTC.';
const FIRST_DESCRIPTION = 'Page size: 1 to TOP_PAGES_MAX_PAGE (default 10).';
const AFTER_DESCRIPTION = 'Continue after this cursor (an edge cursor or pageInfo.endCursor of the same query).';

@Resolver()
export class EventResolver {
  @Query(() => EventConnectionType, {
    nullable: true,
    description:
      "The custom events sent on a site (or one page), ranked by count, with each event's distinct visitors. Null (with an error) when this field fails.",
  })
  async events(
    @Ctx() { services, loaders }: Context,
    @Arg('site', { description: 'Site identifier.' }) site: string,
    @Arg('page', () => String, { nullable: true, description: PAGE_DESCRIPTION }) page: string | null,
    @Arg('range', () => TimeRangeInput, { description: RANGE_DESCRIPTION }) range: TimeRangeInput,
    @Arg('timeZone', () => String, { nullable: true, description: ZONE_DESCRIPTION }) timeZone: string | null,
    @Arg('first', () => Int, { defaultValue: 10, description: FIRST_DESCRIPTION }) first: number,
    @Arg('after', () => String, { nullable: true, description: AFTER_DESCRIPTION }) after: string | null,
  ): Promise<EventConnectionType> {
    const span = services.events.parseSpan({ site, page, from: range.from, to: range.to, timeZone }, 'events');
    const paging = services.events.parsePaging(first, after);
    return toConnection(services.events.events(await loaders.events.load(span), paging));
  }

  @Query(() => EventConnectionType, {
    nullable: true,
    description:
      "One property's values for one event on a site (or one page), ranked by count. Null (with an error) when this field fails.",
  })
  async properties(
    @Ctx() { services, loaders }: Context,
    @Arg('site', { description: 'Site identifier.' }) site: string,
    @Arg('page', () => String, { nullable: true, description: PAGE_DESCRIPTION }) page: string | null,
    @Arg('event', { description: 'The event name, e.g. "Signup".' }) event: string,
    @Arg('key', { description: 'The property key, e.g. "plan".' }) key: string,
    @Arg('range', () => TimeRangeInput, { description: RANGE_DESCRIPTION }) range: TimeRangeInput,
    @Arg('timeZone', () => String, { nullable: true, description: ZONE_DESCRIPTION }) timeZone: string | null,
    @Arg('first', () => Int, { defaultValue: 10, description: FIRST_DESCRIPTION }) first: number,
    @Arg('after', () => String, { nullable: true, description: AFTER_DESCRIPTION }) after: string | null,
  ): Promise<EventConnectionType> {
    const span = services.events.parseSpan({ site, page, from: range.from, to: range.to, timeZone }, 'properties');
    const paging = services.events.parsePaging(first, after);
    return toConnection(services.events.properties(await loaders.events.load(span), event, key, paging));
  }

  @Query(() => [ConversionType], {
    nullable: true,
    description:
      "Each goal's conversions over the range: how often it was reached, by how many visitors, its conversion rate (the goal's visitors over the site's visitors of the same span) and its revenue. Goals need no configuration. Null (with an error) when this field fails.",
  })
  async conversions(
    @Ctx() { services, loaders }: Context,
    @Arg('site', { description: 'Site identifier.' }) site: string,
    @Arg('page', () => String, {
      nullable: true,
      description:
        "Count event goals on this page only; absent: the whole site's. Page goals always match the site's pages.",
    })
    page: string | null,
    @Arg('goals', () => [GoalInput], { description: 'The goals: at most 20.' }) goals: GoalInput[],
    @Arg('range', () => TimeRangeInput, { description: RANGE_DESCRIPTION }) range: TimeRangeInput,
    @Arg('timeZone', () => String, { nullable: true, description: ZONE_DESCRIPTION }) timeZone: string | null,
  ): Promise<ConversionType[]> {
    const span = services.events.parseSpan({ site, page, from: range.from, to: range.to, timeZone }, 'conversions');
    const parsed = services.events.parseGoals(goals);
    const conversions = await services.events.conversions(span, parsed, {
      events: (s) => loaders.events.load(s),
      siteVisitors: async (s) => {
        const [answer] = await loaders.stats.spanVisitors([{ ...s, page: SITE_TOTAL_PAGE }]);
        if (answer === undefined || answer instanceof Error) throw answer ?? new Error('no site visitors');
        return answer.visitors;
      },
    });
    return conversions.map((c) => ({ ...c, revenue: [...c.revenue] }));
  }
}

export function toConnection(result: BreakdownResult): EventConnectionType {
  return {
    // Visit figures are kept per dimension value of the site's visits only (breakdown without `event`).
    edges: result.edges.map((edge) => ({ ...edge, node: { ...edge.node, ...visitFiguresOf(edge.node.visits) } })),
    pageInfo: result.pageInfo,
    totalCount: result.totalCount,
    other: result.other,
    from: new Date(result.from),
    to: new Date(result.to),
  };
}
