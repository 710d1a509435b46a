/**
 * The live-series subscription: validates its arguments, then hands the client the process's LiveSeriesHub
 * iterator (one database poll per second for every watched series, whichever instance ingested the hits). Visitors
 * and visit counters are read only when the subscription selects them.
 */
import { Arg, Int, Resolver, Root, Subscription } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import type { LiveUpdate } from '../../query/LiveSeries';
import { parseLiveSeriesRequest } from '../../query/parseLiveSeriesRequest';
import { VISIT_FIGURE_NAMES, visitFiguresOf } from '../../query/visitCounts';
import { formatWithOffset } from '../../time/formatWithOffset';
import { Granularity } from '../../time/Granularity';
import { UTC_ZONE } from '../../time/zoneOffset';
import type { Context } from '../Context';
import { selectsField } from '../selectsField';
import { LiveGranularity } from '../types/LiveGranularityEnum';
import { PageStatsUpdateType } from '../types/PageStatsUpdateType';

interface LiveArgs {
  site: string;
  page: string;
  granularity: LiveGranularity;
  window: number;
  timeZone: string | null;
}

/** Where an update's selection shows visitors: only then does the poll read minute sketches. */
const VISITOR_PATHS = [['visitors'], ['visitorsFrom'], ['visitorsTo'], ['points', 'visitors']] as const;

/** Where an update's selection shows visit figures: only then does the poll read minute visit counters. */
const VISIT_PATHS = VISIT_FIGURE_NAMES.flatMap((field) => [[field], ['points', field]]);

function subscribe({
  args,
  context,
  info,
}: SubscribeResolverData<unknown, LiveArgs, Context>): AsyncIterable<LiveUpdate> {
  const spec = parseLiveSeriesRequest(
    {
      site: args.site,
      page: args.page,
      granularity: args.granularity === LiveGranularity.SECOND ? Granularity.SECOND : Granularity.MINUTE,
      window: args.window,
      timeZone: args.timeZone,
      visitors: selectsField(info, VISITOR_PATHS),
      visits: selectsField(info, VISIT_PATHS),
    },
    context.services.seriesLimits,
  );
  return context.services.live.watch(spec);
}

@Resolver()
export class PageStatsLiveResolver {
  @Subscription(() => PageStatsUpdateType, {
    subscribe,
    description:
      "Live hits on one page over the last `window` seconds, over WebSocket (graphql-ws, path /graphql). The first message is the whole window; later ones carry only the buckets whose counts (or visitors, or visit figures) changed, at most one message per second. Hits recorded through any instance show up: the server re-reads the counters once per second. Selecting `visitors` adds the window's distinct visitors, and at MINUTE each point's, from the per-minute sketches. Selecting visit figures (`visits`, `bounceRate`, `visitDuration`, `viewsPerVisit`) adds, at MINUTE, each point's and the window's from per-minute visit counters kept with the second-level counters: a visit counts in the minute of its first hit (its later hits update that minute, which is then sent again), and on a page the three rates are of the visits that entered there, as in pageStats. They are null at SECOND (visit counters are kept per minute at the finest: a visit spans seconds and minutes, and its figures belong to its start), for minutes before the second-level retention, and when VISITS_ENABLED or SECONDS_ENABLED is false.",
  })
  pageStatsLive(
    @Root() update: LiveUpdate,
    @Arg('site', { description: 'Site identifier.' }) _site: string,
    @Arg('page', { description: 'URL path starting with "/".' }) _page: string,
    @Arg('granularity', () => LiveGranularity, { description: 'Bucket size: SECOND or MINUTE.' })
    _granularity: LiveGranularity,
    @Arg('window', () => Int, {
      defaultValue: 300,
      description: 'How many seconds back the window reaches: 1–3,600 for SECOND, 60–86,400 for MINUTE.',
    })
    _window: number,
    @Arg('timeZone', () => String, {
      nullable: true,
      description:
        'IANA time zone the buckets follow, as in pageStats (SECOND and MINUTE buckets coincide with UTC in every zone whose offset is whole minutes). Default UTC.',
    })
    _timeZone: string | null,
  ): PageStatsUpdateType {
    return {
      site: update.spec.site,
      page: update.spec.page,
      granularity: update.spec.granularity,
      snapshot: update.snapshot,
      from: new Date(update.from),
      to: new Date(update.to),
      total: update.total,
      visitors: update.visitors?.visitors ?? null,
      visitorsFrom: update.visitors ? new Date(update.visitors.from) : null,
      visitorsTo: update.visitors ? new Date(update.visitors.to) : null,
      ...visitFiguresOf(update.visits),
      points: update.points.map((point) => ({
        t: new Date(point.t),
        local: formatWithOffset(update.spec.timeZone ?? UTC_ZONE, point.t),
        hits: point.hits,
        visitors: point.visitors ?? null,
        ...visitFiguresOf(point.visits),
      })),
    };
  }
}
