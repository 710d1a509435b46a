/**
 * One subscriber of a live series, as the AsyncIterator a GraphQL subscription returns. It remembers the
 * counts it has handed out and queues at most one update: a slow reader gets the changes merged, not a backlog.
 */
import type { LiveSeriesSpec, LiveUpdate } from './LiveSeries';
import { changedPoints } from './LiveSeries';
import type { Series, SeriesPoint } from './Series';

export class LiveSubscription implements AsyncIterableIterator<LiveUpdate> {
  /** Points the reader has (or will have once it reads `pending`), by bucket start; undefined before the snapshot. */
  private known: Map<number, SeriesPoint> | undefined;
  private pending: LiveUpdate | undefined;
  private wake: ((result: IteratorResult<LiveUpdate>) => void) | undefined;
  private done = false;

  constructor(
    readonly spec: LiveSeriesSpec,
    private readonly onEnd: (subscription: LiveSubscription) => void,
  ) {}

  /** Offers the series as polled now; queues the snapshot or the changed buckets, if any. */
  offer(series: Series): void {
    if (this.done) return;
    const snapshot = this.known === undefined;
    const changed = snapshot ? series.points : changedPoints(this.known as Map<number, SeriesPoint>, series.points);
    this.known = new Map(series.points.map((point) => [point.t, point]));
    if (changed.length === 0 && !snapshot) return;
    const update: LiveUpdate = {
      spec: this.spec,
      snapshot: snapshot || this.pending?.snapshot === true,
      from: series.from,
      to: series.to,
      // Live requests carry no retention cutoffs (parseLiveSeriesRequest): no point, so no total, is ever null.
      total: series.total as number,
      visitors: series.visitors,
      visits: series.visits,
      points: this.pending && !snapshot ? merge(this.pending, changed, series) : changed,
    };
    if (this.wake) {
      const wake = this.wake;
      this.wake = undefined;
      wake({ value: update, done: false });
    } else {
      this.pending = update;
    }
  }

  next(): Promise<IteratorResult<LiveUpdate>> {
    if (this.pending) {
      const value = this.pending;
      this.pending = undefined;
      return Promise.resolve({ value, done: false });
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.wake = resolve));
  }

  return(): Promise<IteratorResult<LiveUpdate>> {
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(): Promise<IteratorResult<LiveUpdate>> {
    return this.return();
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<LiveUpdate> {
    return this;
  }

  /** Ends the iteration (client gone, or the hub closing); idempotent. */
  end(): void {
    if (this.done) return;
    this.done = true;
    this.pending = undefined;
    this.wake?.({ value: undefined, done: true });
    this.wake = undefined;
    this.onEnd(this);
  }
}

/** An unread update plus newer changes: the union by bucket, newest counts winning, inside the current window. */
function merge(pending: LiveUpdate, changed: readonly SeriesPoint[], series: Series): SeriesPoint[] {
  if (pending.snapshot) return [...series.points];
  const byT = new Map<number, SeriesPoint>();
  for (const point of [...pending.points, ...changed]) byT.set(point.t, point);
  return [...byT.values()].filter((point) => point.t >= series.from).sort((a, b) => a.t - b.t);
}
