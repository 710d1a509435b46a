/**
 * Long loops of a window's write (visit transitions, session states, counter changes) run on the thread that serves
 * requests. A window of a busy minute holds thousands of sessions, and computed in one go it held every request
 * behind it for up to 370 ms (a CPU profile of the soak at 700 `recordHit`/s, docs/benchmarks.md). A loop asks
 * `due()` per item and awaits `pause()` when it is true, so requests are served between slices of `sliceMs`.
 */
export class TimeSlice {
  private started: number;
  private calls = 0;

  constructor(
    private readonly sliceMs = DEFAULT_SLICE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  /** Whether this slice is spent; the clock is read every CHECK_EVERY calls, so asking per item is cheap. */
  due(): boolean {
    this.calls += 1;
    if (this.calls % CHECK_EVERY !== 0) return false;
    return this.now() - this.started >= this.sliceMs;
  }

  /** Lets queued I/O callbacks and timers run, then starts a new slice. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = this.now();
  }
}

export const DEFAULT_SLICE_MS = 10;
const CHECK_EVERY = 16;
