/**
 * The group committer's writer: claims the keys of a flush's keyed requests in the ledger (one insert command
 * for all of them, none when the flush has none), adds the claimed requests' hits to the batch, and writes the
 * batch with one bulk write per collection — guarded by the flush's marker when it holds a keyed request, so a
 * re-drive of any of them after a failure can tell which documents absorbed it (src/store/FlushMark.ts).
 */
import type { CounterBatch } from '../store/CounterBatch';
import { flushMark } from '../store/FlushMark';
import type { FlushMark } from '../store/FlushMark';
import type { RequestLedger } from '../store/requestLedger';
import type { FlushContext, FlushWrite, KeyedSubmission } from './GroupCommitter';

export interface FlushWriterDeps {
  readonly counters: { write(batch: CounterBatch, mark?: FlushMark): Promise<void> };
  readonly ledger: Pick<RequestLedger, 'claim'>;
  readonly clock: () => number;
  readonly leaseMs: number;
}

export function createFlushWriter(deps: FlushWriterDeps): FlushWrite {
  return async (batch: CounterBatch, { keyed, attempt }: FlushContext) => {
    const claimed = new Set<KeyedSubmission>();
    if (keyed.length > 0) {
      const taken = await deps.ledger.claim(
        keyed.map((k) => k.claim),
        attempt,
        { now: deps.clock(), leaseMs: deps.leaseMs },
      );
      for (const submission of keyed) {
        if (taken.has(submission.claim.id)) claimed.add(submission);
        else for (const hit of submission.hits) batch.add(hit);
      }
    }
    await deps.counters.write(batch, keyed.length > claimed.size ? flushMark(attempt) : undefined);
    return claimed;
  };
}
