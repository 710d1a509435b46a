/**
 * One event's series (pageStats and siteStats with `event`, issue 28): per bucket, the event's occurrences and,
 * when asked for, its distinct visitors, from the event documents. Event documents keep days and months, so buckets
 * must be unions of UTC days (DAY, WEEK or MONTH starting at UTC midnight), as for a dimension filter. Every bucket
 * and the whole span are loads of the request's EventLoader made in one tick: one find per event collection.
 */
import { dimensionKey } from '../../domain/dimensions/dimensionKey';
import { parseEventName } from '../../domain/events/parseEvent';
import { eventNamePaths } from '../../store/eventDocument';
import { nextBucketIn, bucketStartsIn } from '../../time/zonedBuckets';
import { UTC_ZONE } from '../../time/zoneOffset';
import { checkDayBuckets } from '../parseDimensionFilter';
import type { Series, SeriesRequest } from '../Series';
import type { EventSpan } from './EventLoader';
import type { EventTotals } from './EventTotals';

/** Checks what eventSeries needs of a request before anything is read; returns the event's stored key. */
export function parseEventSeries(requests: readonly SeriesRequest[], event: string): string {
  const name = parseEventName(event, () => 'event');
  requests.forEach((request, i) =>
    checkDayBuckets(request, i === 0 ? 'the series' : 'the comparison', 'an event series counts events'),
  );
  return dimensionKey(name);
}

export async function eventSeries(
  request: SeriesRequest,
  nameKey: string,
  load: (span: EventSpan) => Promise<EventTotals>,
): Promise<Series> {
  const zone = request.timeZone ?? UTC_ZONE;
  const starts = bucketStartsIn(zone, request.granularity, request.from, request.to);
  const end = nextBucketIn(zone, request.granularity, starts[starts.length - 1] as number);
  const { site, page } = request;
  const bounds = starts.map((start, i) => [start, starts[i + 1] ?? end] as const);
  const wantsVisitors = request.visitors !== undefined;
  const fields = eventNamePaths(nameKey, wantsVisitors ? ['n', 'ev'] : ['n']);
  const [whole, ...buckets] = await Promise.all([
    load({ site, page, from: starts[0] as number, to: end, fields }),
    ...bounds.map(([from, to]) => load({ site, page, from, to, fields })),
  ]);
  const points = buckets.map((totals, i) => {
    const hits = totals.counts().get(nameKey) ?? 0;
    const t = (bounds[i] as readonly [number, number])[0];
    return wantsVisitors ? { t, hits, visitors: hits === 0 ? 0 : totals.visitors(nameKey) } : { t, hits };
  });
  const total = points.reduce((sum, point) => sum + point.hits, 0);
  const series: Series = { request, from: starts[0] as number, to: end, total, points };
  if (!wantsVisitors) return series;
  const visitors = total === 0 ? 0 : (whole as EventTotals).visitors(nameKey);
  return { ...series, visitors: { visitors, from: series.from, to: end } };
}
