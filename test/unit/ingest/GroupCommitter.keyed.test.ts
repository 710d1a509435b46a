import { GroupCommitter } from '../../../src/ingest/GroupCommitter';
import { claim, controlledWriter, hit, tick } from './controlledWriter';
import type { Flush } from './controlledWriter';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('GroupCommitter with keyed requests', () => {
  it('sends a keyed request next to the batch, whole, in one flush however large it is', async () => {
    const { flushes, write } = controlledWriter();
    const committer = new GroupCommitter(write, { intervalMs: 0, concurrency: 1, maxPendingDocuments: 10 });
    const hits = Array.from({ length: 20 }, (_, i) => hit(`/p${i}`));
    const done = committer.submit(hits, true, claim('k'));
    expect(flushes).toHaveLength(1);
    expect(flushes[0]?.batch.hits).toBe(0);
    expect(flushes[0]?.context.keyed.map((k) => k.hits.length)).toEqual([20]);
    flushes[0]?.finish();
    await expect(done).resolves.toBe('written');
  });

  it('answers `claimed` to the request whose key was taken, and `written` to the others of the flush', async () => {
    const { flushes, write } = controlledWriter();
    const committer = new GroupCommitter(write, { intervalMs: 5, concurrency: 1, maxPendingDocuments: 1000 });
    // An idle writer sends a hit at once: keep it busy so the three below share the next flush.
    const busy = committer.submit([hit('/z')]);
    const taken = committer.submit([hit('/a')], false, claim('taken'));
    const fresh = committer.submit([hit('/a')], false, claim('fresh'));
    const plain = committer.submit([hit('/b')]);
    // The 5 ms window closes with the writer still busy: the three wait for it.
    await jest.advanceTimersByTimeAsync(20);
    expect(flushes).toHaveLength(1);
    flushes[0]?.finish();
    await busy;
    await tick();
    expect(flushes).toHaveLength(2);
    const flush = flushes[1] as Flush;
    flush.finish(new Set(flush.context.keyed.filter((k) => k.claim.id === 'taken')));
    await expect(Promise.all([taken, fresh, plain])).resolves.toEqual(['claimed', 'written', 'written']);
  });

  it('numbers flushes per lane and gives a failed flush a fresh lane', async () => {
    const { flushes, write } = controlledWriter();
    const committer = new GroupCommitter(write, { intervalMs: 0, concurrency: 1, maxPendingDocuments: 1000 });
    const first = committer.submit([hit('/a')]);
    flushes[0]?.finish();
    await first;
    const second = committer.submit([hit('/a')]);
    await tick();
    flushes[1]?.fail(new Error('boom'));
    await expect(second).rejects.toThrow('boom');
    const third = committer.submit([hit('/a')]);
    await tick();
    flushes[2]?.finish();
    await third;
    const [a, b, c] = flushes.map((f) => f.context.attempt);
    expect(b).toEqual({ lane: a?.lane, seq: 2 });
    expect(c?.lane).not.toBe(a?.lane);
    expect(c?.seq).toBe(1);
  });
});
