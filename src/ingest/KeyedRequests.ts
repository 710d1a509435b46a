/**
 * Exactly-once execution of requests carrying an idempotency key (issue 9). A first attempt goes through group
 * commit like any request; its key is claimed in the ledger by its flush. A request whose key is taken is a retry:
 * - a different payload → IDEMPOTENCY_KEY_REUSED;
 * - the same payload, and every counter document it touches carries a marker of one of its attempts → it is
 *   complete: answer with the original result (hits without `at` are re-stamped with the ledger's arrival time);
 * - otherwise, once its lease has run out (or this process saw its attempts fail definitely), take it over with a
 *   compare-and-set on the ledger entry and re-drive it alone, guarded by all its earlier attempts' markers, so
 *   only the documents that missed it get it;
 * - otherwise wait (polling) up to `waitMs`, then IDEMPOTENCY_KEY_IN_PROGRESS.
 * Retries of a request in flight in this process simply join it.
 *
 * With the ingest log (INGEST_ACK=log) a first attempt is logged instead, and answered once durable: the ledger is read
 * first (a key found there is a retry, as above), and the key is claimed by the window that writes the hits, under that
 * window's mark (WindowCommitter.claimKeys). Such a claim is never taken over: its hits are in this process's log, and
 * only the log's own window writes them (after a restart if need be). A retry meanwhile is answered from the log's
 * pending keys in this process, waits for the window elsewhere, and IDEMPOTENCY_KEY_IN_PROGRESS after `waitMs`.
 */
import { IdempotencyKeyInProgressError } from '../errors/IdempotencyKeyInProgressError';
import { IdempotencyKeyReusedError } from '../errors/IdempotencyKeyReusedError';
import type { CounterBatch } from '../store/CounterBatch';
import { flushMark } from '../store/FlushMark';
import type { FlushMark, LaneSeq } from '../store/FlushMark';
import { isDefiniteWriteFailure } from '../store/isDefiniteWriteFailure';
import type { LedgerEntry } from '../store/requestLedger';
import type { GroupCommitter } from './GroupCommitter';
import type { Hit } from '../domain/Hit';
import type { IdempotencyKey } from './IdempotencyKey';
import type { WindowCommitter } from './WindowCommitter';

export interface KeyedRequestsDeps {
  readonly committer: Pick<GroupCommitter, 'submit' | 'lanes'>;
  readonly ledger: {
    find(id: string): Promise<LedgerEntry | undefined>;
    takeOver(entry: LedgerEntry, attempt: LaneSeq, leaseUntil: number): Promise<boolean>;
  };
  readonly counters: {
    write(batch: CounterBatch, mark?: FlushMark): Promise<void>;
    absorbed(batch: CounterBatch, mark: FlushMark): Promise<boolean>;
  };
  readonly newBatch: () => CounterBatch;
  readonly clock: () => number;
  /** How long an attempt owns its key before another may re-drive it. */
  readonly leaseMs: number;
  /** How long a retry waits for an attempt in progress before answering IDEMPOTENCY_KEY_IN_PROGRESS. */
  readonly waitMs: number;
  readonly pollMs?: number | undefined;
  /** INGEST_ACK=log: first attempts are logged and written by the log's windows (WindowCommitter). */
  readonly log?: Pick<WindowCommitter, 'submitKeyed' | 'pendingKey'> | undefined;
}

/** Hits stamped with an arrival time, and the result the client gets for them. */
export type Stamp<T> = (now: number) => { readonly hits: readonly Hit[]; readonly result: T };

interface Running {
  readonly fingerprint: string;
  readonly promise: Promise<unknown>;
}

const DEFAULT_POLL_MS = 200;

export class KeyedRequests {
  private readonly running = new Map<string, Running>();

  constructor(private readonly deps: KeyedRequestsDeps) {}

  /**
   * Runs the request once per key. `stamp` parses and validates the input at an arrival time (it throws for bad
   * input before anything is claimed or written).
   */
  run<T>(key: IdempotencyKey, fingerprint: string, stamp: Stamp<T>, urgent: boolean): Promise<T> {
    const running = this.running.get(key.id);
    if (running) {
      if (running.fingerprint !== fingerprint) return Promise.reject(new IdempotencyKeyReusedError());
      return running.promise as Promise<T>;
    }
    const promise = this.firstAttempt(key, fingerprint, stamp, urgent).finally(() => this.running.delete(key.id));
    this.running.set(key.id, { fingerprint, promise });
    return promise;
  }

  private async firstAttempt<T>(
    key: IdempotencyKey,
    fingerprint: string,
    stamp: Stamp<T>,
    urgent: boolean,
  ): Promise<T> {
    if (this.deps.log) return this.loggedAttempt(this.deps.log, key, fingerprint, stamp, urgent);
    const now = this.deps.clock();
    const { hits, result } = stamp(now);
    const outcome = await this.deps.committer.submit(hits, urgent, { id: key.id, fingerprint, now });
    if (outcome === 'written') return result;
    return this.retry(key, fingerprint, stamp, urgent);
  }

  private async loggedAttempt<T>(
    log: NonNullable<KeyedRequestsDeps['log']>,
    key: IdempotencyKey,
    fingerprint: string,
    stamp: Stamp<T>,
    urgent: boolean,
  ): Promise<T> {
    const pending = log.pendingKey(key.id);
    if (pending) {
      if (pending.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
      return stamp(pending.now).result;
    }
    if (await this.deps.ledger.find(key.id)) return this.retry(key, fingerprint, stamp, urgent);
    const now = this.deps.clock();
    const { hits, result } = stamp(now);
    await log.submitKeyed({ id: key.id, fingerprint, now }, hits);
    return result;
  }

  private async retry<T>(key: IdempotencyKey, fingerprint: string, stamp: Stamp<T>, urgent: boolean): Promise<T> {
    const { clock, leaseMs, waitMs } = this.deps;
    const deadline = clock() + waitMs;
    for (;;) {
      const entry = await this.deps.ledger.find(key.id);
      // Expired (or swept) between the claim and this read: the key is free again.
      if (!entry) return this.firstAttempt(key, fingerprint, stamp, urgent);
      if (entry.fingerprint !== fingerprint) throw new IdempotencyKeyReusedError();
      const { hits, result } = stamp(entry.now);
      const batch = this.deps.newBatch();
      for (const hit of hits) batch.add(hit);
      const last = entry.attempts[entry.attempts.length - 1];
      if (last && (await this.deps.counters.absorbed(batch, flushMark(last, entry.attempts)))) return result;

      const now = clock();
      const lanes = this.deps.committer.lanes;
      if (entry.leaseUntil <= now || entry.attempts.every((a) => lanes.isDefinitelyFailed(a))) {
        const attempt = lanes.oneShot();
        if (!(await this.deps.ledger.takeOver(entry, attempt, now + leaseMs))) continue;
        try {
          await this.deps.counters.write(batch, flushMark(attempt, entry.attempts));
        } catch (error) {
          lanes.failedWith(attempt, isDefiniteWriteFailure(error));
          throw error;
        }
        return result;
      }
      // A window's claim is leased for as long as the entry lives: its writer may be a while (the log's retry delays).
      if (now >= deadline) throw new IdempotencyKeyInProgressError(Math.min(entry.leaseUntil - now, leaseMs));
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(this.deps.pollMs ?? DEFAULT_POLL_MS, deadline - now)),
      );
    }
  }
}
