/**
 * Turns pageStatsLive messages (absolute counts of small buckets) into increments of the chart's larger
 * buckets. A live MINUTE series can feed a chart of any granularity from MINUTE up: the minute that changed
 * falls in exactly one chart bucket, found from the bucket starts the chart already has.
 */
export interface LivePoint {
  readonly t: number;
  readonly hits: number;
}

/** Absolute counts last seen per live bucket; `apply` returns how much each changed bucket grew. */
export class LiveCounts {
  private readonly seen = new Map<number, number>();

  apply(snapshot: boolean, points: readonly LivePoint[]): LivePoint[] {
    if (snapshot) this.seen.clear();
    const deltas: LivePoint[] = [];
    for (const point of points) {
      const before = this.seen.get(point.t);
      this.seen.set(point.t, point.hits);
      // A snapshot is the baseline: the chart was read from the database already.
      if (!snapshot && point.hits !== (before ?? 0)) deltas.push({ t: point.t, hits: point.hits - (before ?? 0) });
    }
    return deltas;
  }
}

/**
 * Index of the chart bucket holding instant `t`, given the sorted bucket starts and the end of the last
 * bucket: -1 before the first, `starts.length` at or after `end` (the range has moved on: reload).
 */
export function bucketIndex(starts: readonly number[], end: number, t: number): number {
  if (starts.length === 0 || t < starts[0]!) return -1;
  if (t >= end) return starts.length;
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (starts[mid]! <= t) low = mid;
    else high = mid - 1;
  }
  return low;
}
