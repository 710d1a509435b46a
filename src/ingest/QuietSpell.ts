/**
 * How long traffic must pause before the open window is sealed early (FLUSH_IDLE_MS), measured against the traffic's
 * own gaps: twice the largest gap between requests seen lately, at least a quarter of FLUSH_IDLE_MS and at most all
 * of it. After a burst (a backfill, a benchmark: arrivals milliseconds apart) the window is sealed a quarter second
 * after the last one instead of a second; traffic whose gaps are already long (a small site, a pipeline sending every
 * half second) still waits the whole FLUSH_IDLE_MS, as before.
 *
 * Why it cannot seal much more often than a fixed FLUSH_IDLE_MS: a gap of FLUSH_IDLE_MS or more seals under either
 * rule; a shorter one seals here only if it is at least twice every gap of the lookback, and it is then a gap of the
 * lookback itself, so the next such seal needs a gap twice as long again. From a quarter of FLUSH_IDLE_MS that is at
 * most two seals per lookback beyond the fixed rule's (a quarter, then half of it).
 *
 * Gaps of FLUSH_IDLE_MS or more are left out: they seal under either rule, and after one the window is empty, so the
 * silence before a burst must not make the burst wait the whole FLUSH_IDLE_MS. The lookback is kept in two spans of
 * `lookbackMs` (the current and the previous one), so a gap is remembered for `lookbackMs` to twice that.
 */
export class QuietSpell {
  private readonly floorMs: number;
  private spanStart: number | undefined;
  private largest = 0;
  private previousLargest = 0;
  private lastArrival: number | undefined;

  constructor(
    /** FLUSH_IDLE_MS: the longest quiet spell asked for, and the longest gap counted. */
    readonly idleMs: number,
    /** How long a gap is remembered (FLUSH_WINDOW_MS). */
    readonly lookbackMs: number,
  ) {
    this.floorMs = idleMs / 4;
  }

  /** A request brought hits at `now` (a monotonic clock, milliseconds). */
  arrived(now: number): void {
    this.rotate(now);
    if (this.lastArrival !== undefined) {
      const gap = now - this.lastArrival;
      if (gap < this.idleMs && gap > this.largest) this.largest = gap;
    }
    this.lastArrival = now;
  }

  /** The quiet spell that seals the open window now, in milliseconds. */
  needed(now: number): number {
    this.rotate(now);
    const wanted = 2 * Math.max(this.largest, this.previousLargest);
    return Math.min(this.idleMs, Math.max(this.floorMs, wanted));
  }

  private rotate(now: number): void {
    if (this.spanStart === undefined) {
      this.spanStart = now;
      return;
    }
    const elapsed = now - this.spanStart;
    if (elapsed < this.lookbackMs) return;
    this.previousLargest = elapsed < 2 * this.lookbackMs ? this.largest : 0;
    this.largest = 0;
    this.spanStart = now;
  }
}
