/** Test helpers for GroupCommitter: hits, fake-timer ticks, key claims, and a writer whose flushes the test settles. */
import type { Hit } from '../../../src/domain/Hit';
import type { FlushContext, KeyedSubmission } from '../../../src/ingest/GroupCommitter';
import type { CounterBatch } from '../../../src/store/CounterBatch';

export const hit = (page: string): Hit => ({ site: 's', page, at: Date.parse('2026-01-01T10:00:00Z'), count: 1 });
/** Lets promise callbacks run and fires timers that are due, without moving the fake clock. */
export const tick = () => jest.advanceTimersByTimeAsync(0);
export const claim = (id: string) => ({ id, fingerprint: 'fp', now: 0 });

export interface Flush {
  readonly batch: CounterBatch;
  readonly context: FlushContext;
  finish(claimed?: ReadonlySet<KeyedSubmission>): void;
  fail(error: Error): void;
}

/** A writer whose flushes settle only when the test says so: a flush never settled is a write that hangs. */
export function controlledWriter() {
  const flushes: Flush[] = [];
  const write = (batch: CounterBatch, context: FlushContext) =>
    new Promise<ReadonlySet<KeyedSubmission> | void>((resolve, reject) =>
      flushes.push({ batch, context, finish: resolve, fail: reject }),
    );
  return { flushes, write };
}
