/**
 * A live series (the last `window` of one page, by SECOND or MINUTE) and the updates a subscriber receives:
 * first a snapshot of every bucket, then only the buckets whose counts (hits, visitors or visit counters) changed, as
 * absolute counts.
 * Pure: the window is computed from the `now` passed in.
 */
import { MINUTE_MS, SECOND_MS } from '../time/buckets';
import { floorIn } from '../time/zonedBuckets';
import { UTC_ZONE } from '../time/zoneOffset';
import { Granularity } from '../time/Granularity';
import type { SeriesPoint, SeriesRequest, SpanVisitors } from './Series';
import { NO_VISITS } from './visitCounts';
import type { VisitCounts } from './visitCounts';
import { visitorOptions } from './visitorOptions';

export type LiveGranularity = Granularity.SECOND | Granularity.MINUTE;

export interface LiveSeriesSpec {
  readonly site: string;
  readonly page: string;
  readonly granularity: LiveGranularity;
  /** How far back the window reaches; it always ends with the bucket holding `now`. */
  readonly windowMs: number;
  /** IANA zone the buckets follow (MINUTE buckets are the same in every zone whose offset is whole minutes). */
  readonly timeZone?: string | undefined;
  /** Present when the subscription selected visitors: the window's, and at MINUTE each point's, from minute sketches. */
  readonly visitors?: { readonly secondsRetentionMs?: number | undefined } | undefined;
  /**
   * Present when the subscription selected visit figures at MINUTE, with visits and second-level counting on: each
   * point's and the window's, from the minute documents' visit counters (`vm`) inside the seconds retention.
   */
  readonly visits?: { readonly secondsRetentionMs: number } | undefined;
}

export interface LiveUpdate {
  readonly spec: LiveSeriesSpec;
  /** True for the first update (every bucket of the window); false for changes only. */
  readonly snapshot: boolean;
  /** Start of the window's first bucket; a client drops buckets before it. */
  readonly from: number;
  /** End of the window's last bucket (exclusive). */
  readonly to: number;
  /** Sum of the whole window, not only of `points`. */
  readonly total: number;
  /** Distinct visitors of the whole window (or of the periods covering it, which it states); absent unless asked for. */
  readonly visitors?: SpanVisitors | null | undefined;
  /** The whole window's visit counters; null when a bucket has none (before the retention edge); absent unless asked for. */
  readonly visits?: VisitCounts | null | undefined;
  /** Snapshot: every bucket. Otherwise: the buckets whose counts changed; buckets not listed are unchanged (new ones are 0). */
  readonly points: readonly SeriesPoint[];
}

const WIDTH: Record<LiveGranularity, number> = { [Granularity.SECOND]: SECOND_MS, [Granularity.MINUTE]: MINUTE_MS };

export function liveSeriesKey(spec: LiveSeriesSpec): string {
  const visitors = spec.visitors ? `v${spec.visitors.secondsRetentionMs ?? ''}` : '-';
  const visits = spec.visits ? `x${spec.visits.secondsRetentionMs}` : '-';
  return `${spec.granularity}\u0000${spec.windowMs}\u0000${spec.timeZone ?? 'UTC'}\u0000${spec.site}\u0000${spec.page}\u0000${visitors}\u0000${visits}`;
}

/** The series request for the window at `now`: ceil(window / width) buckets, the last one holding `now`. */
export function liveWindowRequest(spec: LiveSeriesSpec, now: number): SeriesRequest {
  const width = WIDTH[spec.granularity];
  const buckets = Math.max(1, Math.ceil(spec.windowMs / width));
  const current = floorIn(spec.timeZone ?? UTC_ZONE, spec.granularity, now);
  return {
    site: spec.site,
    page: spec.page,
    granularity: spec.granularity,
    from: current - (buckets - 1) * width,
    to: current + width,
    timeZone: spec.timeZone,
    ...(spec.visitors ? { visitors: visitorOptions(now, spec.visitors.secondsRetentionMs) } : {}),
    // Minute documents are kept as long as minute sketches: visit counters are read from the same minutes on.
    ...(spec.visits
      ? { visits: true, visitMinutesFrom: visitorOptions(now, spec.visits.secondsRetentionMs).minutesFrom }
      : {}),
  };
}

/**
 * The points whose counts (or visitors, or visit counters) differ from `known` (bucket start → point; absent means 0
 * hits and no visits).
 */
export function changedPoints(known: ReadonlyMap<number, SeriesPoint>, points: readonly SeriesPoint[]): SeriesPoint[] {
  return points.filter((point) => {
    const before = known.get(point.t);
    return (
      (before?.hits ?? 0) !== point.hits ||
      (before?.visitors ?? null) !== (point.visitors ?? null) ||
      visitsChanged(before, point)
    );
  });
}

function visitsChanged(before: SeriesPoint | undefined, point: SeriesPoint): boolean {
  const now = point.visits;
  if (now === undefined) return false;
  const was = before === undefined ? NO_VISITS : (before.visits ?? null);
  if (was === null || now === null) return was !== now;
  return (Object.keys(now) as Array<keyof VisitCounts>).some((field) => was[field] !== now[field]);
}
