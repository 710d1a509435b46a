/**
 * Group commit for counter writes: hits arriving within `intervalMs` are summed per document and written
 * together; each caller is answered when the flush that holds its hits is acknowledged. At most
 * `concurrency` flushes are in flight; hits arriving meanwhile wait and go out in the next one.
 */
import { CounterBatch } from '../store/CounterBatch';
import type { Hit } from './Hit';

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

export interface GroupCommitterOptions {
  readonly intervalMs: number;
  readonly concurrency: number;
  /** A pending batch touching this many documents is flushed without waiting for the interval. */
  readonly maxPendingDocuments: number;
  /** Opens an empty batch (it may need the clock, e.g. for the second-level retention window). */
  readonly newBatch?: (() => CounterBatch) | undefined;
}

export class GroupCommitter {
  private pending: CounterBatch;
  private waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private readonly idle: Array<() => void> = [];

  constructor(
    private readonly write: (batch: CounterBatch) => Promise<void>,
    private readonly options: GroupCommitterOptions,
  ) {
    this.pending = this.newBatch();
  }

  /** Resolves once a write holding every one of `hits` is acknowledged. `urgent` skips the wait. */
  submit(hits: readonly Hit[], urgent = false): Promise<void> {
    if (hits.length === 0) return Promise.resolve();
    // A batch is opened by its first hit, so its notion of "now" is at most one flush interval old.
    if (this.pending.hits === 0) this.pending = this.newBatch();
    for (const hit of hits) this.pending.add(hit);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (urgent || this.options.intervalMs === 0 || this.pending.documents >= this.options.maxPendingDocuments) {
      this.startFlush();
    } else {
      this.timer ??= setTimeout(() => this.startFlush(), this.options.intervalMs);
    }
    return done;
  }

  /** Writes everything pending and waits for every flush in flight (used at shutdown). */
  async drain(): Promise<void> {
    while (this.inFlight > 0 || this.waiters.length > 0) {
      this.startFlush();
      await new Promise<void>((resolve) => this.idle.push(resolve));
    }
  }

  private newBatch(): CounterBatch {
    return this.options.newBatch ? this.options.newBatch() : new CounterBatch();
  }

  private startFlush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.waiters.length === 0 || this.inFlight >= this.options.concurrency) return;
    const batch = this.pending;
    const waiters = this.waiters;
    this.pending = this.newBatch();
    this.waiters = [];
    this.inFlight += 1;
    this.write(batch)
      .then(
        () => waiters.forEach((w) => w.resolve()),
        (error: unknown) => waiters.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        this.inFlight -= 1;
        // Whatever queued up behind a busy writer goes out at once: that is the batching.
        if (this.waiters.length > 0) this.startFlush();
        if (this.inFlight === 0) this.idle.splice(0).forEach((resolve) => resolve());
      });
  }
}
