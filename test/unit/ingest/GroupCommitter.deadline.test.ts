import { flushDeadlineMs, FLUSH_DEADLINE_MARGIN_MS } from '../../../src/ingest/createFlushWriter';
import { GroupCommitter } from '../../../src/ingest/GroupCommitter';
import type { FlushObserver, KeyedSubmission } from '../../../src/ingest/GroupCommitter';
import { ServiceUnavailableError } from '../../../src/errors/ServiceUnavailableError';
import { claim, controlledWriter, hit, tick } from './controlledWriter';

const DEADLINE_MS = 3_000;

/** One flush at a time, each given DEADLINE_MS. */
function withDeadline(write: ReturnType<typeof controlledWriter>['write'], observer?: FlushObserver): GroupCommitter {
  return new GroupCommitter(write, {
    intervalMs: 0,
    concurrency: 1,
    maxPendingDocuments: 1000,
    deadlineMs: () => DEADLINE_MS,
    observer,
  });
}

// The deadline is time: fake timers decide when it passes, never the machine's load.
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('GroupCommitter deadline', () => {
  it('gives up a write that never settles: its callers get SERVICE_UNAVAILABLE (timeout) and the next flush goes out', async () => {
    const { flushes, write } = controlledWriter();
    const committer = withDeadline(write);
    const hung = committer.submit([hit('/a')]);
    const outcome = hung.then(
      () => 'answered',
      (error: unknown) => error,
    );
    await tick();
    const queued = committer.submit([hit('/b')]);
    await tick();
    // One slot: /b waits behind the hung flush.
    expect(flushes).toHaveLength(1);

    await jest.advanceTimersByTimeAsync(DEADLINE_MS - 1);
    expect(flushes).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);

    const error = await outcome;
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect((error as ServiceUnavailableError).why).toBe('timeout');
    // The slot is free again: /b went out and is answered as usual.
    expect(flushes).toHaveLength(2);
    expect(flushes[1]?.batch.hits).toBe(1);
    flushes[1]?.finish();
    await expect(queued).resolves.toBe('written');
  });

  it("retires the given-up attempt's lane as failed with an unknown outcome, and ignores how the write ends later", async () => {
    const { flushes, write } = controlledWriter();
    const settled: boolean[] = [];
    const observer: FlushObserver = { started: () => undefined, settled: (_s, ok) => settled.push(ok) };
    const committer = withDeadline(write, observer);
    const hung = committer.submit([hit('/a')], true, claim('k'));
    const rejected = expect(hung).rejects.toBeInstanceOf(ServiceUnavailableError);
    await tick();
    await jest.advanceTimersByTimeAsync(DEADLINE_MS);
    await rejected;
    const lost = flushes[0]?.context.attempt;
    expect(lost).toBeDefined();
    // Not definite: the write may still be applied, so only the lease may hand the request to a re-drive.
    expect(committer.lanes.isDefinitelyFailed(lost as NonNullable<typeof lost>)).toBe(false);

    // The late acknowledgement neither answers anyone again nor gives the retired lane back.
    flushes[0]?.finish();
    await tick();
    const next = committer.submit([hit('/a')]);
    await tick();
    expect(flushes[1]?.context.attempt.lane).not.toBe(lost?.lane);
    expect(flushes[1]?.context.attempt.seq).toBe(1);
    flushes[1]?.finish();
    await expect(next).resolves.toBe('written');
    expect(settled).toEqual([false, true]);
  });

  it('answers a write that settles before the deadline as usual, and lets drain() end when a write hangs', async () => {
    const { flushes, write } = controlledWriter();
    const committer = withDeadline(write);
    const first = committer.submit([hit('/a')]);
    await jest.advanceTimersByTimeAsync(DEADLINE_MS - 1);
    flushes[0]?.finish();
    await expect(first).resolves.toBe('written');
    // Its deadline was cleared: passing it changes nothing.
    await jest.advanceTimersByTimeAsync(DEADLINE_MS);

    const hung = committer.submit([hit('/b')]).catch((error: unknown) => error);
    let drained = false;
    const drain = committer.drain().then(() => (drained = true));
    await tick();
    expect(drained).toBe(false);
    await jest.advanceTimersByTimeAsync(DEADLINE_MS);
    await drain;
    expect(drained).toBe(true);
    expect(await hung).toBeInstanceOf(ServiceUnavailableError);
  });
});

describe('flushDeadlineMs', () => {
  const attempt = { lane: 'l', seq: 1 };
  const keyed: KeyedSubmission = { claim: claim('k'), hits: [hit('/a')] };

  it('gives an unkeyed flush one database timeout and the margin', () => {
    expect(flushDeadlineMs({ keyed: [], attempt }, 2_000, { delaysMs: [100], budgetMs: 13_000 })).toBe(
      2_000 + FLUSH_DEADLINE_MARGIN_MS,
    );
  });

  it('gives a keyed flush its retry budget and two database timeouts (claim, then write), and the margin', () => {
    expect(flushDeadlineMs({ keyed: [keyed], attempt }, 2_000, { delaysMs: [100], budgetMs: 13_000 })).toBe(
      13_000 + 4_000 + FLUSH_DEADLINE_MARGIN_MS,
    );
    expect(flushDeadlineMs({ keyed: [keyed], attempt }, 2_000, undefined)).toBe(4_000 + FLUSH_DEADLINE_MARGIN_MS);
  });
});
