import { KeyedRequests } from '../../../src/ingest/KeyedRequests';
import type { KeyedRequestsDeps } from '../../../src/ingest/KeyedRequests';
import { WriterLanes } from '../../../src/ingest/WriterLanes';
import { CounterBatch } from '../../../src/store/CounterBatch';

type LedgerEntry = NonNullable<Awaited<ReturnType<KeyedRequestsDeps['ledger']['find']>>>;

const START = Date.parse('2026-03-10T12:00:00Z');
const KEY = { key: 'k', id: 'ledger-id-of-k' };
const FINGERPRINT = 'fp';
const stamp = (now: number) => ({ hits: [{ site: 's', page: '/', at: now, count: 1 }], result: { at: now } });

/** A key claimed by another process's attempt whose lease ends at `leaseUntil`; its writes never show up. */
function retryOf(leaseUntil: number, pollMs = 200) {
  const entry: LedgerEntry = {
    id: KEY.id,
    fingerprint: FINGERPRINT,
    now: START - 5_000,
    attempts: [{ lane: 'other-process', seq: 1 }],
    version: 1,
    leaseUntil,
  };
  const reads: number[] = [];
  const takeOvers: Array<{ at: number; leaseUntil: number }> = [];
  const writes: number[] = [];
  const keyed = new KeyedRequests({
    committer: { submit: async () => 'claimed', lanes: new WriterLanes(1) },
    ledger: {
      find: async () => {
        reads.push(Date.now() - START);
        return entry;
      },
      takeOver: async (_entry, _attempt, until) => {
        takeOvers.push({ at: Date.now() - START, leaseUntil: until - START });
        return true;
      },
    },
    counters: {
      write: async (batch) => {
        writes.push(batch.hits);
      },
      absorbed: async () => false,
    },
    newBatch: () => new CounterBatch(),
    clock: () => Date.now(),
    leaseMs: 10_000,
    waitMs: 3_000,
    pollMs,
  });
  return { keyed, reads, takeOvers, writes };
}

/** Runs the request to its end on fake time. */
async function settle<T>(pending: Promise<T>): Promise<PromiseSettledResult<T>> {
  const result = Promise.allSettled([pending]).then(([only]) => only as PromiseSettledResult<T>);
  await jest.advanceTimersByTimeAsync(60_000);
  return result;
}

beforeEach(() => {
  jest.useFakeTimers();
  jest.setSystemTime(START);
});
afterEach(() => jest.useRealTimers());

describe('KeyedRequests, retrying a key another attempt holds', () => {
  it('polls the ledger every pollMs within the lease, then answers IDEMPOTENCY_KEY_IN_PROGRESS after waitMs', async () => {
    const { keyed, reads, takeOvers } = retryOf(START + 10_000);
    const outcome = await settle(keyed.run(KEY, FINGERPRINT, stamp, false));
    expect(outcome).toMatchObject({
      status: 'rejected',
      reason: {
        name: 'IdempotencyKeyInProgressError',
        message:
          'a request with this idempotency key is still in progress; retry in about 7 s (it will not be counted twice)',
      },
    });
    expect(reads).toEqual(Array.from({ length: 16 }, (_, i) => i * 200));
    expect(takeOvers).toEqual([]);
  });

  it('takes the key over at the first poll after the lease ran out, and writes the hits itself', async () => {
    const { keyed, reads, takeOvers, writes } = retryOf(START + 1_000);
    const outcome = await settle(keyed.run(KEY, FINGERPRINT, stamp, false));
    // Answered with the original arrival time kept in the ledger.
    expect(outcome).toEqual({ status: 'fulfilled', value: { at: START - 5_000 } });
    expect(reads).toEqual([0, 200, 400, 600, 800, 1_000]);
    expect(takeOvers).toEqual([{ at: 1_000, leaseUntil: 11_000 }]);
    expect(writes).toEqual([1]);
  });

  it('shortens its last pause so that it answers at waitMs, not at the next whole pollMs', async () => {
    const { keyed, reads } = retryOf(START + 60_000, 2_000);
    const outcome = await settle(keyed.run(KEY, FINGERPRINT, stamp, false));
    expect(outcome.status).toBe('rejected');
    expect(reads).toEqual([0, 2_000, 3_000]);
  });
});
