import { GroupCommitter } from '../../../src/ingest/GroupCommitter';
import type { Hit } from '../../../src/domain/Hit';
import type { CounterBatch } from '../../../src/store/CounterBatch';

const hit = (page: string, at = Date.parse('2026-01-01T10:00:00Z')): Hit => ({ site: 's', page, at, count: 1 });

/** A writer whose flushes complete only when the test says so. */
function controlledWriter() {
  const flushes: Array<{ batch: CounterBatch; finish(): void; fail(error: Error): void }> = [];
  const write = (batch: CounterBatch) =>
    new Promise<void>((resolve, reject) => flushes.push({ batch, finish: resolve, fail: reject }));
  return { flushes, write };
}

/** Lets promise callbacks run and fires timers that are due, without moving the fake clock. */
const tick = () => jest.advanceTimersByTimeAsync(0);

// The group-commit window is time: fake timers decide when it closes, never the machine's load.
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('GroupCommitter', () => {
  it('writes a hit at once when nothing is being written, and gathers the hits that arrive meanwhile', async () => {
    const { flushes, write } = controlledWriter();
    const committer = new GroupCommitter(write, { intervalMs: 1_000, concurrency: 1, maxPendingDocuments: 1000 });
    const first = committer.submit([hit('/a')]);
    await tick();
    // Idle: no waiting for the 1 s interval.
    expect(flushes).toHaveLength(1);
    const gathered = Promise.all([
      committer.submit([hit('/a')]),
      committer.submit([hit('/a')]),
      committer.submit([hit('/b')]),
    ]);
    await tick();
    expect(flushes).toHaveLength(1);
    flushes[0]?.finish();
    await first;
    await tick();
    expect(flushes).toHaveLength(2);
    expect(flushes[1]?.batch.hits).toBe(3);
    // /a and /b: one daily and one monthly document each.
    expect(flushes[1]?.batch.documents).toBe(4);
    flushes[1]?.finish();
    await gathered;
  });

  it('under load, gathers hits for the interval before the next flush', async () => {
    const { flushes, write } = controlledWriter();
    const committer = new GroupCommitter(write, { intervalMs: 5, concurrency: 2, maxPendingDocuments: 1000 });
    const first = committer.submit([hit('/a')]);
    const later = Promise.all([committer.submit([hit('/b')]), committer.submit([hit('/c')])]);
    await jest.advanceTimersByTimeAsync(4);
    // A flush is in flight and a second lane is free, yet /b and /c wait for the 5 ms window.
    expect(flushes).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(flushes).toHaveLength(2);
    expect(flushes[1]?.batch.hits).toBe(2);
    flushes.forEach((flush) => flush.finish());
    await Promise.all([first, later]);
  });

  it('under load, sends what gathered as soon as the flush in flight completes, before the interval', async () => {
    const { flushes, write } = controlledWriter();
    const committer = new GroupCommitter(write, { intervalMs: 1_000, concurrency: 1, maxPendingDocuments: 1000 });
    const first = committer.submit([hit('/a')]);
    const later = committer.submit([hit('/b')]);
    await jest.advanceTimersByTimeAsync(10);
    expect(flushes).toHaveLength(1);
    flushes[0]?.finish();
    await first;
    await tick();
    expect(flushes).toHaveLength(2);
    // And the window's timer is gone: nothing more goes out when it would have closed.
    flushes[1]?.finish();
    await later;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(flushes).toHaveLength(2);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('answers callers only after their flush is acknowledged', async () => {
    const { flushes, write } = controlledWriter();
    const committer = new GroupCommitter(write, { intervalMs: 0, concurrency: 1, maxPendingDocuments: 1000 });
    let answered = false;
    const done = committer.submit([hit('/a')]).then(() => (answered = true));
    await tick();
    expect(answered).toBe(false);
    flushes[0]?.finish();
    await done;
    expect(answered).toBe(true);
  });

  it('keeps one flush in flight and sends what queued behind it as the next batch', async () => {
    const { flushes, write } = controlledWriter();
    const committer = new GroupCommitter(write, { intervalMs: 0, concurrency: 1, maxPendingDocuments: 1000 });
    const first = committer.submit([hit('/a')]);
    const queued = [committer.submit([hit('/b')]), committer.submit([hit('/c')])];
    await tick();
    expect(flushes).toHaveLength(1);
    flushes[0]?.finish();
    await first;
    await tick();
    expect(flushes).toHaveLength(2);
    expect(flushes[1]?.batch.hits).toBe(2);
    flushes[1]?.finish();
    await Promise.all(queued);
  });

  it('rejects every caller of a failed flush and nobody else', async () => {
    const { flushes, write } = controlledWriter();
    const committer = new GroupCommitter(write, { intervalMs: 0, concurrency: 2, maxPendingDocuments: 1000 });
    const failed = committer.submit([hit('/a')]);
    await tick();
    const fine = committer.submit([hit('/b')]);
    await tick();
    flushes[0]?.fail(new Error('boom'));
    flushes[1]?.finish();
    await expect(failed).rejects.toThrow('boom');
    await expect(fine).resolves.toBe('written');
  });

  it('drains pending and in-flight writes', async () => {
    const written: number[] = [];
    const committer = new GroupCommitter(
      async (batch) => {
        written.push(batch.hits);
      },
      { intervalMs: 10_000, concurrency: 1, maxPendingDocuments: 1000 },
    );
    const pending = committer.submit([hit('/a'), hit('/b')]);
    await committer.drain();
    await pending;
    expect(written).toEqual([2]);
  });

  it('splits a huge submission into flushes of bounded size', async () => {
    const { flushes, write } = controlledWriter();
    const committer = new GroupCommitter(write, { intervalMs: 0, concurrency: 1, maxPendingDocuments: 100 });
    // 500 pages: 1,000 documents (daily and monthly), so ten flushes of 100.
    const done = committer.submit(
      Array.from({ length: 500 }, (_, i) => hit(`/p${i}`)),
      true,
    );
    for (let i = 0; i < 10; i++) {
      await tick();
      expect(flushes).toHaveLength(i + 1);
      expect(flushes[i]?.batch.documents).toBe(100);
      flushes[i]?.finish();
    }
    await done;
    expect(flushes.reduce((sum, f) => sum + f.batch.hits, 0)).toBe(500);
  });

  it('sends a single hit with the next flush, not behind every flush of a huge batch', async () => {
    const { flushes, write } = controlledWriter();
    const committer = new GroupCommitter(write, { intervalMs: 0, concurrency: 1, maxPendingDocuments: 100 });
    const big = committer.submit(
      Array.from({ length: 500 }, (_, i) => hit(`/p${i}`)),
      true,
    );
    let singleAnswered = false;
    const single = committer.submit([hit('/single')]).then(() => (singleAnswered = true));
    await tick();
    flushes[0]?.finish();
    await tick();
    expect(flushes).toHaveLength(2);
    expect(flushes[1]?.batch.hits).toBe(51);
    flushes[1]?.finish();
    await single;
    expect(singleAnswered).toBe(true);
    expect(flushes).toHaveLength(3);
    for (let i = 2; i < 10; i++) {
      flushes[i]?.finish();
      await tick();
    }
    await big;
  });

  it('rejects a submission spanning several flushes when one of them fails', async () => {
    const { flushes, write } = controlledWriter();
    const committer = new GroupCommitter(write, { intervalMs: 0, concurrency: 1, maxPendingDocuments: 100 });
    const big = committer.submit(
      Array.from({ length: 150 }, (_, i) => hit(`/p${i}`)),
      true,
    );
    const outcome = expect(big).rejects.toThrow('second flush failed');
    await tick();
    flushes[0]?.finish();
    await tick();
    flushes[1]?.fail(new Error('second flush failed'));
    await tick();
    flushes[2]?.finish();
    await outcome;
  });

  // A hit is two documents here (daily and monthly).
  it('tells its observer what each flush writes, how many requests wait, and how long it took', async () => {
    const { flushes, write } = controlledWriter();
    const seen: string[] = [];
    const committer = new GroupCommitter(write, {
      intervalMs: 1_000,
      concurrency: 1,
      maxPendingDocuments: 1000,
      observer: {
        started: (documents, waiting) => seen.push(`started ${documents} documents, ${waiting} waiting`),
        settled: (seconds, ok) => seen.push(`settled ${ok ? 'ok' : 'error'} after ${seconds}s`),
      },
    });
    const first = committer.submit([hit('/a')]);
    const queued = [committer.submit([hit('/b')]), committer.submit([hit('/c')])];
    await tick();
    jest.advanceTimersByTime(250);
    flushes[0]?.finish();
    await first;
    await tick();
    flushes[1]?.fail(new Error('refused'));
    await Promise.allSettled(queued);
    expect(seen).toEqual([
      'started 2 documents, 1 waiting',
      'settled ok after 0.25s',
      'started 4 documents, 2 waiting',
      'settled error after 0s',
    ]);
  });
});
