/**
 * Group commit for counter writes: hits arriving within `intervalMs` are summed per document and written
 * together; each caller is answered when the flush that holds its hits is acknowledged. At most
 * `concurrency` flushes are in flight; hits arriving meanwhile wait and go out in the next one.
 *
 * Each flush is one attempt `(lane, seq)` of a writer lane (WriterLanes). Requests with an idempotency key travel
 * next to the batch, not in it: the writer first claims their keys in the ledger and adds only the claimed ones
 * (see createFlushWriter), so a duplicate never enters a flush.
 */
import { CounterBatch } from '../store/CounterBatch';
import type { LaneSeq } from '../store/FlushMark';
import { isDefiniteWriteFailure } from '../store/isDefiniteWriteFailure';
import type { LedgerClaim } from '../store/requestLedger';
import type { Hit } from './Hit';
import { WriterLanes } from './WriterLanes';

/** A keyed request waiting for its flush. */
export interface KeyedSubmission {
  readonly claim: LedgerClaim;
  readonly hits: readonly Hit[];
}

/** What one flush holds besides the coalesced batch of unkeyed hits. */
export interface FlushContext {
  readonly keyed: readonly KeyedSubmission[];
  readonly attempt: LaneSeq;
}

/**
 * Writes a flush. Resolves with the keyed submissions it did not write because their key was claimed already
 * (by an earlier attempt or another process): their callers handle them as retries.
 */
export type FlushWrite = (batch: CounterBatch, flush: FlushContext) => Promise<ReadonlySet<KeyedSubmission> | void>;

/** `written`: the hits are acknowledged. `claimed`: the key was already claimed; nothing of this call was written. */
export type SubmitOutcome = 'written' | 'claimed';

interface Waiter {
  resolve(outcome: SubmitOutcome): void;
  reject(error: unknown): void;
  readonly keyed?: KeyedSubmission | undefined;
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
  private keyed: KeyedSubmission[] = [];
  private keyedHits = 0;
  private waiters: Waiter[] = [];
  /** The writer lanes: one per flush that may be in flight. */
  readonly lanes: WriterLanes;
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private readonly idle: Array<() => void> = [];

  constructor(
    private readonly write: FlushWrite,
    private readonly options: GroupCommitterOptions,
  ) {
    this.pending = this.newBatch();
    this.lanes = new WriterLanes(options.concurrency);
  }

  /**
   * Resolves once a write holding every one of `hits` is acknowledged. `urgent` skips the wait. With `claim` (a
   * keyed request) it may instead resolve `claimed`: the key was taken before this flush could claim it.
   */
  submit(hits: readonly Hit[], urgent = false, claim?: LedgerClaim): Promise<SubmitOutcome> {
    if (hits.length === 0) return Promise.resolve('written');
    let keyed: KeyedSubmission | undefined;
    if (claim) {
      keyed = { claim, hits };
      this.keyed.push(keyed);
      this.keyedHits += hits.length;
    } else {
      // A batch is opened by its first hit, so its notion of "now" is at most one flush interval old.
      if (this.pending.hits === 0) this.pending = this.newBatch();
      for (const hit of hits) this.pending.add(hit);
    }
    const done = new Promise<SubmitOutcome>((resolve, reject) => this.waiters.push({ resolve, reject, keyed }));
    if (
      urgent ||
      this.options.intervalMs === 0 ||
      this.pending.documents + this.keyedHits >= this.options.maxPendingDocuments
    ) {
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
    const batch = this.pending.hits === 0 ? this.newBatch() : this.pending;
    const waiters = this.waiters;
    const keyed = this.keyed;
    this.pending = this.newBatch();
    this.waiters = [];
    this.keyed = [];
    this.keyedHits = 0;
    this.inFlight += 1;
    const attempt = this.lanes.acquire();
    this.write(batch, { keyed, attempt })
      .then(
        (claimed) => {
          this.lanes.succeeded(attempt);
          for (const w of waiters) w.resolve(w.keyed && claimed?.has(w.keyed) ? 'claimed' : 'written');
        },
        (error: unknown) => {
          this.lanes.failedWith(attempt, isDefiniteWriteFailure(error));
          waiters.forEach((w) => w.reject(error));
        },
      )
      .finally(() => {
        this.inFlight -= 1;
        // Whatever queued up behind a busy writer goes out at once: that is the batching.
        if (this.waiters.length > 0) this.startFlush();
        if (this.inFlight === 0) this.idle.splice(0).forEach((resolve) => resolve());
      });
  }
}
