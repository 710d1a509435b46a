/**
 * Group commit for counter writes: hits arriving while a flush is in flight (or within `intervalMs` of each
 * other under load) are summed per document and written together; a hit arriving when nothing is being written goes
 * out at once. Each caller is answered when every flush that holds its hits is acknowledged. At most `concurrency`
 * flushes are in flight; hits arriving meanwhile wait and go out in the next one.
 *
 * A flush touches at most about `maxPendingDocuments` documents: a huge submission is sealed into several
 * bounded flushes, and hits that arrive while those queue ride along with the next one instead of waiting behind
 * all of them, so one 10,000-page batch never holds a single hit back for longer than about two flushes.
 *
 * Each flush is one attempt `(lane, seq)` of a writer lane (WriterLanes). Requests with an idempotency key travel
 * next to the batch, not in it, and always whole in one flush: the writer first claims their keys in the ledger and
 * adds only the claimed ones (see createFlushWriter), so a duplicate never enters a flush, and the ledger can name
 * the one attempt that carried each request.
 *
 * A flush's write has a deadline (`deadlineMs`): a write that has not settled by then is given up, as a timeout. Its
 * callers get SERVICE_UNAVAILABLE (cause `timeout`), its slot goes to the next flush, and its attempt counts as failed
 * with an unknown outcome: the lane is retired and the attempt is not definitely failed, so a keyed request it held
 * is re-driven only after its lease, guarded by the attempt's marker. Whatever the write does later is ignored.
 */
import { ServiceUnavailableError } from '../errors/ServiceUnavailableError';
import { CounterBatch } from '../store/CounterBatch';
import type { LaneSeq } from '../store/FlushMark';
import { isDefiniteWriteFailure } from '../store/isDefiniteWriteFailure';
import type { LedgerClaim } from '../store/requestLedger';
import type { Hit } from '../domain/Hit';
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

interface Part {
  batch: CounterBatch;
  readonly waiters: Waiter[];
  readonly keyed: KeyedSubmission[];
  /** Documents the keyed submissions may touch (DOCUMENTS_PER_HIT each): they count toward the flush's size. */
  keyedDocuments: number;
}

/** The most documents one hit touches: a page's and its site's daily, monthly and minute documents. */
const DOCUMENTS_PER_HIT = 6;

/** Watches flushes (the metrics): what each one carries when it starts, and how long it took. */
export interface FlushObserver {
  /** `documents` the flush writes; `waiting`: requests waiting for a flush now, its own and those queued behind. */
  started(documents: number, waiting: number): void;
  settled(seconds: number, ok: boolean): void;
}

export interface GroupCommitterOptions {
  readonly intervalMs: number;
  readonly concurrency: number;
  /** A flush is sealed once it touches this many documents, and written without waiting for the interval. */
  readonly maxPendingDocuments: number;
  /** Opens an empty batch (it may need the clock, e.g. for the second-level retention window). */
  readonly newBatch?: (() => CounterBatch) | undefined;
  readonly observer?: FlushObserver | undefined;
  /**
   * How long a flush's write may take before it is given up (see above); absent: no deadline. A driver call that
   * never settles would otherwise hold its slot, and every hit queued behind it, for ever.
   */
  readonly deadlineMs?: ((flush: FlushContext) => number) | undefined;
}

export class GroupCommitter {
  private open: Part;
  /** Full flushes of large submissions, oldest first. */
  private readonly sealed: Part[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  private readonly idle: Array<() => void> = [];
  /** The writer lanes: one per flush that may be in flight. */
  readonly lanes: WriterLanes;

  constructor(
    private readonly write: FlushWrite,
    private readonly options: GroupCommitterOptions,
  ) {
    this.open = this.newPart();
    this.lanes = new WriterLanes(options.concurrency);
  }

  /**
   * Resolves once writes holding every one of `hits` are acknowledged. `urgent` skips the wait. With `claim` (a
   * keyed request) the hits go out in one flush, and it may instead resolve `claimed`: the key was taken before
   * this flush could claim it, and nothing of this call was written.
   */
  submit(hits: readonly Hit[], urgent = false, claim?: LedgerClaim): Promise<SubmitOutcome> {
    if (hits.length === 0) return Promise.resolve('written');
    if (claim) return this.submitKeyed({ claim, hits }, urgent);
    const parts: Array<Promise<SubmitOutcome>> = [];
    let holdsHits = false;
    for (const hit of hits) {
      // A batch is opened by its first hit, so its notion of "now" is at most one flush interval old.
      if (this.open.batch.hits === 0) this.open.batch = this.newBatch();
      this.open.batch.add(hit);
      holdsHits = true;
      if (this.size(this.open) >= this.options.maxPendingDocuments) {
        parts.push(this.waitFor(this.open));
        this.sealed.push(this.open);
        this.open = this.newPart();
        holdsHits = false;
      }
    }
    if (holdsHits) parts.push(this.waitFor(this.open));
    this.schedule(urgent);
    return parts.length === 1 ? (parts[0] as Promise<SubmitOutcome>) : Promise.all(parts).then(() => 'written');
  }

  private submitKeyed(submission: KeyedSubmission, urgent: boolean): Promise<SubmitOutcome> {
    const documents = submission.hits.length * DOCUMENTS_PER_HIT;
    if (this.open.waiters.length > 0 && this.size(this.open) + documents > this.options.maxPendingDocuments) {
      this.sealed.push(this.open);
      this.open = this.newPart();
    }
    this.open.keyed.push(submission);
    this.open.keyedDocuments += documents;
    const done = this.waitFor(this.open, submission);
    if (this.size(this.open) >= this.options.maxPendingDocuments) {
      this.sealed.push(this.open);
      this.open = this.newPart();
    }
    this.schedule(urgent);
    return done;
  }

  /**
   * Adaptive: when nothing is being written, a hit goes out at once (a lone client pays one write, not the interval
   * and then the write); while flushes are in flight, hits gather for the interval or until one of them completes.
   */
  private schedule(urgent: boolean): void {
    if (urgent || this.options.intervalMs === 0 || this.sealed.length > 0 || this.inFlight === 0) {
      this.startFlush();
    } else {
      this.timer ??= setTimeout(() => this.startFlush(), this.options.intervalMs);
    }
  }

  /** Requests queued behind the flushes in flight (sealed and open parts). */
  private waiting(): number {
    let waiting = this.open.waiters.length;
    for (const part of this.sealed) waiting += part.waiters.length;
    return waiting;
  }

  private size(part: Part): number {
    return part.batch.documents + part.keyedDocuments;
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
    return { batch: this.newBatch(), waiters: [], keyed: [], keyedDocuments: 0 };
  }

  private waitFor(part: Part, keyed?: KeyedSubmission): Promise<SubmitOutcome> {
    return new Promise<SubmitOutcome>((resolve, reject) => part.waiters.push({ resolve, reject, keyed }));
  }

  /** The oldest sealed flush, with the small open batch riding along; else the open batch. */
  private next(): Part | undefined {
    const sealed = this.sealed.shift();
    if (sealed) {
      const open = this.open;
      if (open.waiters.length > 0 && this.size(open) <= this.options.maxPendingDocuments) {
        sealed.batch.absorb(open.batch);
        sealed.waiters.push(...open.waiters);
        sealed.keyed.push(...open.keyed);
        sealed.keyedDocuments += open.keyedDocuments;
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
      // A keyed-only flush opens its batch now: its notion of "now" must not be older than the flush.
      const batch = part.batch.hits === 0 ? this.newBatch() : part.batch;
      const attempt = this.lanes.acquire();
      const { observer } = this.options;
      observer?.started(this.size(part), part.waiters.length + this.waiting());
      const started = performance.now();
      const flush: FlushContext = { keyed: part.keyed, attempt };
      let settled = false;
      const settle = (ok: boolean): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(deadline);
        observer?.settled((performance.now() - started) / 1000, ok);
        return true;
      };
      const succeeded = (claimed: ReadonlySet<KeyedSubmission> | void): void => {
        if (!settle(true)) return;
        this.lanes.succeeded(attempt);
        for (const w of part.waiters) w.resolve(w.keyed && claimed?.has(w.keyed) ? 'claimed' : 'written');
        this.flushEnded();
      };
      const failed = (error: unknown, definite: boolean): void => {
        if (!settle(false)) return;
        this.lanes.failedWith(attempt, definite);
        part.waiters.forEach((w) => w.reject(error));
        this.flushEnded();
      };
      const limitMs = this.options.deadlineMs?.(flush);
      const deadline =
        limitMs === undefined
          ? undefined
          : setTimeout(() => {
              // The write may still reach the database: its outcome is unknown, never a definite failure.
              const error = new ServiceUnavailableError(
                `the database did not acknowledge the write within ${limitMs} ms; retry later`,
                'timeout',
              );
              failed(error, false);
            }, limitMs);
      this.write(batch, flush).then(succeeded, (error: unknown) => failed(error, isDefiniteWriteFailure(error)));
    }
  }

  private flushEnded(): void {
    this.inFlight -= 1;
    // Whatever queued up behind a busy writer goes out at once: that is the batching.
    if (this.sealed.length > 0 || this.open.waiters.length > 0) this.startFlush();
    if (this.inFlight === 0) this.idle.splice(0).forEach((resolve) => resolve());
  }
}
