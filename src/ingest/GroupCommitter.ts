/**
 * Group commit for counter writes: hits arriving within `intervalMs` are summed per document and written
 * together; each caller is answered when every flush that holds its hits is acknowledged. At most `concurrency`
 * flushes are in flight; hits arriving meanwhile wait and go out in the next one.
 *
 * A flush touches at most about `maxPendingDocuments` documents: a huge submission is sealed into several
 * bounded flushes, and hits that arrive while those queue ride along with the next one instead of waiting behind
 * all of them, so one 10,000-page batch never holds a single hit back for longer than about two flushes.
 */
import { CounterBatch } from '../store/CounterBatch';
import type { Hit } from './Hit';

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

interface Part {
  batch: CounterBatch;
  readonly waiters: Waiter[];
}

export interface GroupCommitterOptions {
  readonly intervalMs: number;
  readonly concurrency: number;
  /** A flush is sealed once it touches this many documents, and written without waiting for the interval. */
  readonly maxPendingDocuments: number;
  /** Opens an empty batch (it may need the clock, e.g. for the second-level retention window). */
  readonly newBatch?: (() => CounterBatch) | undefined;
}

export class GroupCommitter {
  private open: Part;
  /** Full flushes of large submissions, oldest first. */
  private readonly sealed: Part[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private readonly idle: Array<() => void> = [];

  constructor(
    private readonly write: (batch: CounterBatch) => Promise<void>,
    private readonly options: GroupCommitterOptions,
  ) {
    this.open = this.newPart();
  }

  /** Resolves once writes holding every one of `hits` are acknowledged. `urgent` skips the wait. */
  submit(hits: readonly Hit[], urgent = false): Promise<void> {
    if (hits.length === 0) return Promise.resolve();
    const parts: Array<Promise<void>> = [];
    let holdsHits = false;
    for (const hit of hits) {
      // A batch is opened by its first hit, so its notion of "now" is at most one flush interval old.
      if (this.open.batch.hits === 0) this.open.batch = this.newBatch();
      this.open.batch.add(hit);
      holdsHits = true;
      if (this.open.batch.documents >= this.options.maxPendingDocuments) {
        parts.push(this.waitFor(this.open));
        this.sealed.push(this.open);
        this.open = this.newPart();
        holdsHits = false;
      }
    }
    if (holdsHits) parts.push(this.waitFor(this.open));
    if (urgent || this.options.intervalMs === 0 || this.sealed.length > 0) {
      this.startFlush();
    } else {
      this.timer ??= setTimeout(() => this.startFlush(), this.options.intervalMs);
    }
    return parts.length === 1 ? (parts[0] as Promise<void>) : Promise.all(parts).then(() => undefined);
  }

  /** Writes everything pending and waits for every flush in flight (used at shutdown). */
  async drain(): Promise<void> {
    while (this.inFlight > 0 || this.sealed.length > 0 || this.open.waiters.length > 0) {
      this.startFlush();
      await new Promise<void>((resolve) => this.idle.push(resolve));
    }
  }

  private newBatch(): CounterBatch {
    return this.options.newBatch ? this.options.newBatch() : new CounterBatch();
  }

  private newPart(): Part {
    return { batch: this.newBatch(), waiters: [] };
  }

  private waitFor(part: Part): Promise<void> {
    return new Promise<void>((resolve, reject) => part.waiters.push({ resolve, reject }));
  }

  /** The oldest sealed flush, with the small open batch riding along; else the open batch. */
  private next(): Part | undefined {
    const sealed = this.sealed.shift();
    if (sealed) {
      const open = this.open;
      if (open.waiters.length > 0 && open.batch.documents <= this.options.maxPendingDocuments) {
        sealed.batch.absorb(open.batch);
        sealed.waiters.push(...open.waiters);
        this.open = this.newPart();
      }
      return sealed;
    }
    if (this.open.waiters.length === 0) return undefined;
    const open = this.open;
    this.open = this.newPart();
    return open;
  }

  private startFlush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.inFlight < this.options.concurrency) {
      const part = this.next();
      if (!part) return;
      this.inFlight += 1;
      this.write(part.batch)
        .then(
          () => part.waiters.forEach((w) => w.resolve()),
          (error: unknown) => part.waiters.forEach((w) => w.reject(error)),
        )
        .finally(() => {
          this.inFlight -= 1;
          // Whatever queued up behind a busy writer goes out at once: that is the batching.
          if (this.sealed.length > 0 || this.open.waiters.length > 0) this.startFlush();
          if (this.inFlight === 0) this.idle.splice(0).forEach((resolve) => resolve());
        });
    }
  }
}
