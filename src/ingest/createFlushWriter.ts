/**
 * The group committer's writer: claims the keys of a flush's keyed requests in the ledger (one insert command
 * for all of them, none when the flush has none), adds the claimed requests' hits to the batch, and writes the
 * batch with one bulk write per collection — guarded by the flush's marker when it holds a keyed request, so a
 * re-drive of any of them after a failure can tell which documents absorbed it (src/store/FlushMark.ts).
 *
 * The retry rule (issue 21). When the database is unavailable (SERVICE_UNAVAILABLE: a timeout, no free connection,
 * a dropped connection), the writer tries again before the requests get that answer, but only what cannot count
 * twice:
 * - the ledger claim: it inserts entries naming this flush's attempt (lane, seq); a re-sent insert that meets its
 *   own entries recognises them as its own (RequestLedger.claim), so a claim is the same after any number of tries;
 * - the counter writes of a marked flush: every upsert is guarded by `_a.<lane> < seq` and sets `_a.<lane> = seq`,
 *   and no other write carries this (lane, seq) (the lane is busy until the flush settles), so a document that
 *   absorbed an earlier try of this flush is skipped by the next one, whatever reached the database before.
 * A flush without keyed requests is unmarked: a timed-out `$inc` may have been applied, so it is never re-sent;
 * its requests get SERVICE_UNAVAILABLE (the client may retry with an idempotency key to be safe).
 * At most `retry.delaysMs.length` re-sends, after those delays, and only while the flush started less than
 * `retry.budgetMs` ago: the budget is half the idempotency lease less the database timeout, so even the last try
 * has ended before another process may take the request over (KeyedRequests re-drives only after the lease).
 */
import { ServiceUnavailableError } from '../errors/ServiceUnavailableError';
import type { CounterBatch } from '../store/CounterBatch';
import { flushMark } from '../store/FlushMark';
import type { FlushMark } from '../store/FlushMark';
import type { RequestLedger } from '../store/requestLedger';
import type { FlushContext, FlushWrite, KeyedSubmission } from './GroupCommitter';

export interface FlushRetry {
  /** The pause before each re-send; its length is how many re-sends there may be. */
  readonly delaysMs: readonly number[];
  /** No re-send starts this long or longer after the flush began. */
  readonly budgetMs: number;
  /** Told of each re-send's outcome (the metrics). */
  readonly onRetry?: ((outcome: 'written' | 'failed', cause: string) => void) | undefined;
}

export interface FlushWriterDeps {
  readonly counters: { write(batch: CounterBatch, mark?: FlushMark): Promise<void> };
  readonly ledger: Pick<RequestLedger, 'claim'>;
  readonly clock: () => number;
  readonly leaseMs: number;
  /** Absent: nothing is re-sent. */
  readonly retry?: FlushRetry | undefined;
}

/** Re-sends after these pauses by default: a stall of the database is usually over within a second. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [100, 500];

/** Half the lease, less the longest a try may take: the last try has ended before anyone may take over. */
export function retryBudgetMs(leaseMs: number, databaseTimeoutMs: number): number {
  return Math.max(0, leaseMs / 2 - databaseTimeoutMs);
}

/** Beyond the bounded driver calls, what a flush may spend in bulk writes' per-operation backoffs and the event loop. */
export const FLUSH_DEADLINE_MARGIN_MS = 1_000;

/**
 * The GroupCommitter's deadline for one flush: the longest its write takes while every driver call keeps its
 * `databaseTimeoutMs` bounds. A flush of unkeyed hits sends its counter writes once; a keyed one claims, then writes,
 * and re-sends either only while the retry budget lasts. Longer than that, a driver call did not keep its bounds.
 */
export function flushDeadlineMs(flush: FlushContext, databaseTimeoutMs: number, retry: FlushRetry | undefined): number {
  if (flush.keyed.length === 0) return databaseTimeoutMs + FLUSH_DEADLINE_MARGIN_MS;
  return (retry?.budgetMs ?? 0) + 2 * databaseTimeoutMs + FLUSH_DEADLINE_MARGIN_MS;
}

export function createFlushWriter(deps: FlushWriterDeps): FlushWrite {
  return async (batch: CounterBatch, { keyed, attempt }: FlushContext) => {
    const began = deps.clock();
    const claimed = new Set<KeyedSubmission>();
    if (keyed.length > 0) {
      const claims = keyed.map((k) => k.claim);
      const taken = await retrying(deps, began, () =>
        deps.ledger.claim(claims, attempt, { now: deps.clock(), leaseMs: deps.leaseMs }),
      );
      for (const submission of keyed) {
        if (taken.has(submission.claim.id)) claimed.add(submission);
        else for (const hit of submission.hits) batch.add(hit);
      }
    }
    if (keyed.length > claimed.size) {
      const mark = flushMark(attempt);
      await retrying(deps, began, () => deps.counters.write(batch, mark));
    } else {
      await deps.counters.write(batch);
    }
    return claimed;
  };
}

/** Runs `write`, and again after each delay while it fails with SERVICE_UNAVAILABLE and the budget allows. */
async function retrying<T>(deps: FlushWriterDeps, began: number, write: () => Promise<T>): Promise<T> {
  const retry = deps.retry;
  for (let tries = 0; ; tries++) {
    try {
      const result = await write();
      if (tries > 0) retry?.onRetry?.('written', 'ok');
      return result;
    } catch (error) {
      if (tries > 0) retry?.onRetry?.('failed', error instanceof ServiceUnavailableError ? error.why : 'other');
      const delay = retry?.delaysMs[tries];
      const resend =
        error instanceof ServiceUnavailableError &&
        delay !== undefined &&
        deps.clock() + delay - began < (retry as FlushRetry).budgetMs;
      if (!resend) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
