/**
 * createFlushWriter's retry rule (issue 21): while the database is unavailable, a flush that carries keyed requests
 * (its writes guarded by its FlushMark) and its ledger claim are re-sent after each delay, within the budget; a
 * flush without keyed requests, and any other failure, is never re-sent.
 */
import type { Hit } from '../../../src/domain/Hit';
import { ServiceUnavailableError } from '../../../src/errors/ServiceUnavailableError';
import { createFlushWriter, retryBudgetMs } from '../../../src/ingest/createFlushWriter';
import type { FlushRetry } from '../../../src/ingest/createFlushWriter';
import type { KeyedSubmission } from '../../../src/ingest/GroupCommitter';
import { CounterBatch } from '../../../src/store/CounterBatch';
import type { FlushMark, LaneSeq } from '../../../src/store/FlushMark';

const AT = Date.parse('2026-01-01T10:00:00Z');
const hit = (page: string): Hit => ({ site: 's', page, at: AT, count: 1 });
const ATTEMPT: LaneSeq = { lane: 'lane', seq: 7 };
const unavailable = () => new ServiceUnavailableError(undefined, 'timeout');

interface Calls {
  writes: Array<FlushMark | undefined>;
  claims: number;
  retries: string[];
}

/** A writer over fakes that fail their first `failures` calls with `error()`. */
function writer(options: {
  writeFailures?: number;
  claimFailures?: number;
  error?: () => Error;
  retry?: Partial<FlushRetry>;
}) {
  const calls: Calls = { writes: [], claims: 0, retries: [] };
  let writeFailures = options.writeFailures ?? 0;
  let claimFailures = options.claimFailures ?? 0;
  const error = options.error ?? unavailable;
  const write = createFlushWriter({
    counters: {
      write: async (_batch, mark) => {
        calls.writes.push(mark);
        if (writeFailures-- > 0) throw error();
      },
    },
    ledger: {
      claim: async () => {
        calls.claims += 1;
        if (claimFailures-- > 0) throw error();
        return new Set<string>();
      },
    },
    clock: () => Date.now(),
    leaseMs: 30_000,
    retry: {
      delaysMs: [100, 500],
      budgetMs: 25_000,
      onRetry: (outcome) => calls.retries.push(outcome),
      ...options.retry,
    },
  });
  return { write, calls };
}

const keyed = (id: string): KeyedSubmission => ({ claim: { id, fingerprint: 'fp', now: AT }, hits: [hit('/k')] });
const batchOf = (...hits: Hit[]) => {
  const batch = new CounterBatch();
  hits.forEach((h) => batch.add(h));
  return batch;
};

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('createFlushWriter retries', () => {
  it('re-sends a marked flush with the same mark after 100 ms, and answers when that try is written', async () => {
    const { write, calls } = writer({ writeFailures: 1 });
    const done = write(batchOf(hit('/a')), { keyed: [keyed('k1')], attempt: ATTEMPT });
    await jest.advanceTimersByTimeAsync(99);
    expect(calls.writes).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    await expect(done).resolves.toEqual(new Set());
    expect(calls.writes).toHaveLength(2);
    expect(calls.writes[1]).toEqual(calls.writes[0]);
    expect(calls.writes[0]?.mark).toEqual(ATTEMPT);
    expect(calls.retries).toEqual(['written']);
  });

  it('gives up after the last delay and answers SERVICE_UNAVAILABLE', async () => {
    const { write, calls } = writer({ writeFailures: 5 });
    const done = write(batchOf(), { keyed: [keyed('k1')], attempt: ATTEMPT });
    const settled = expect(done).rejects.toBeInstanceOf(ServiceUnavailableError);
    await jest.advanceTimersByTimeAsync(1_000);
    await settled;
    expect(calls.writes).toHaveLength(3);
    expect(calls.retries).toEqual(['failed', 'failed']);
  });

  it('never re-sends a flush without keyed requests: a timed-out increment may have been applied', async () => {
    const { write, calls } = writer({ writeFailures: 1 });
    const done = write(batchOf(hit('/a')), { keyed: [], attempt: ATTEMPT });
    await expect(done).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(calls.writes).toEqual([undefined]);
  });

  it('never re-sends after an error other than SERVICE_UNAVAILABLE', async () => {
    const { write, calls } = writer({ writeFailures: 1, error: () => new Error('E11000 duplicate key') });
    await expect(write(batchOf(), { keyed: [keyed('k1')], attempt: ATTEMPT })).rejects.toThrow('E11000');
    expect(calls.writes).toHaveLength(1);
  });

  it('re-sends the ledger claim of the same attempt, then writes the claimed hits once', async () => {
    const { write, calls } = writer({ claimFailures: 1 });
    const batch = batchOf();
    const done = write(batch, { keyed: [keyed('k1')], attempt: ATTEMPT });
    await jest.advanceTimersByTimeAsync(100);
    await done;
    expect(calls.claims).toBe(2);
    expect(calls.writes).toHaveLength(1);
    expect(batch.hits).toBe(1);
  });

  it('starts no re-send once the budget would be spent before its delay ends', async () => {
    const { write, calls } = writer({ writeFailures: 1, retry: { budgetMs: 50 } });
    await expect(write(batchOf(), { keyed: [keyed('k1')], attempt: ATTEMPT })).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
    expect(calls.writes).toHaveLength(1);
  });

  it.each([
    [30_000, 5_000, 10_000],
    [30_000, 20_000, 0],
    [100, 5_000, 0],
  ])(
    'budgets re-sends within half the lease less the database timeout (lease %i, timeout %i: %i ms)',
    (lease, timeout, budget) => {
      expect(retryBudgetMs(lease, timeout)).toBe(budget);
    },
  );
});
