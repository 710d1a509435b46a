import { BatchSubmitter } from '../../../src/logimport/BatchSubmitter';
import type { HitBatch } from '../../../src/logimport/HitBatch';
import { ImportTargetError } from '../../../src/logimport/ImportTarget';
import type { ImportTarget } from '../../../src/logimport/ImportTarget';
import { ImportStats } from '../../../src/logimport/ImportStats';

function batch(n: number): HitBatch {
  return {
    idempotencyKey: `k${n}`,
    file: 'f',
    firstLine: n * 10 + 1,
    lastLine: n * 10 + 10,
    hits: [{ site: 's', page: '/', at: 0, count: 2 }],
    total: 2,
  };
}

/** A target whose answers the test scripts, one outcome list per key, recording what it was sent. */
class ScriptedTarget implements ImportTarget {
  readonly description = 'scripted';
  readonly sent: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private readonly gates: Array<() => void> = [];
  constructor(private readonly script: Record<string, Array<ImportTargetError | 'ok'>> = {}) {}

  async send(b: HitBatch): Promise<number> {
    this.sent.push(b.idempotencyKey);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise<void>((resolve) => this.gates.push(resolve));
    this.inFlight -= 1;
    const outcome = this.script[b.idempotencyKey]?.shift() ?? 'ok';
    if (outcome !== 'ok') throw outcome;
    return b.total;
  }

  release(): void {
    this.gates.splice(0).forEach((open) => open());
  }

  async close(): Promise<void> {}
}

const options = { concurrency: 2, attempts: 3, backoffMs: () => 0, sleep: async () => undefined };

/** Releases the target's sends until `done` settles; a bounded number of turns, so a hang fails by name. */
async function settle(target: ScriptedTarget, done: Promise<unknown>): Promise<void> {
  let finished = false;
  void done.then(() => (finished = true));
  for (let turn = 0; !finished; turn++) {
    if (turn === 1_000) throw new Error('the submitter did not settle within 1,000 event-loop turns');
    target.release();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('BatchSubmitter', () => {
  it('keeps at most `concurrency` batches in flight and counts what was acknowledged', async () => {
    const target = new ScriptedTarget();
    const stats = new ImportStats();
    const submitter = new BatchSubmitter(target, stats, options);
    const all = (async () => {
      for (let i = 0; i < 6; i += 1) await submitter.submit(batch(i));
      await submitter.drain();
    })();
    await settle(target, all);
    expect(target.maxInFlight).toBe(2);
    expect(stats).toMatchObject({ batchesSent: 6, batchesFailed: 0, hitsImported: 12 });
  });

  it('retries a retryable failure under the same key, then succeeds', async () => {
    const target = new ScriptedTarget({ k0: [new ImportTargetError('retry', 'ECONNRESET'), 'ok'] });
    const stats = new ImportStats();
    const submitter = new BatchSubmitter(target, stats, options);
    await settle(
      target,
      submitter.submit(batch(0)).then(() => submitter.drain()),
    );
    expect(target.sent).toEqual(['k0', 'k0']);
    expect(stats).toMatchObject({ batchesSent: 1, hitsImported: 2 });
  });

  it('records a refused batch and goes on with the others', async () => {
    const target = new ScriptedTarget({
      k0: [new ImportTargetError('batch', 'IDEMPOTENCY_KEY_REUSED: different hits')],
    });
    const stats = new ImportStats();
    const submitter = new BatchSubmitter(target, stats, options);
    const all = (async () => {
      expect(await submitter.submit(batch(0))).toBe(true);
      expect(await submitter.submit(batch(1))).toBe(true);
      await submitter.drain();
    })();
    await settle(target, all);
    expect(stats.failures).toEqual(['f lines 1-10: IDEMPOTENCY_KEY_REUSED: different hits']);
    expect(stats).toMatchObject({ batchesSent: 1, batchesFailed: 1, hitsImported: 2 });
    expect(submitter.abortReason).toBeUndefined();
  });

  it('aborts the import when retries run out, and refuses further batches', async () => {
    const down = new ImportTargetError('retry', 'cannot reach http://x: ECONNREFUSED');
    const target = new ScriptedTarget({ k0: [down, down, down] });
    const stats = new ImportStats();
    const submitter = new BatchSubmitter(target, stats, options);
    await settle(
      target,
      submitter.submit(batch(0)).then(() => submitter.drain()),
    );
    expect(target.sent).toEqual(['k0', 'k0', 'k0']);
    expect(submitter.abortReason).toBe('cannot reach http://x: ECONNREFUSED (gave up after 3 attempts)');
    expect(await submitter.submit(batch(1))).toBe(false);
  });
});

describe('BatchSubmitter backoff (fake timers)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('waits backoffMs(attempt) before each retry of a retryable failure', async () => {
    const start = Date.now();
    const sentAt: number[] = [];
    const outcomes: Array<ImportTargetError | 'ok'> = [
      new ImportTargetError('retry', 'ECONNRESET'),
      new ImportTargetError('retry', 'ECONNRESET'),
      'ok',
    ];
    const target: ImportTarget = {
      description: 'flaky',
      send: async (b) => {
        sentAt.push(Date.now() - start);
        const outcome = outcomes.shift() ?? 'ok';
        if (outcome !== 'ok') throw outcome;
        return b.total;
      },
      close: async () => undefined,
    };
    const stats = new ImportStats();
    // No `sleep` option: the submitter's own timer.
    const submitter = new BatchSubmitter(target, stats, { concurrency: 1, attempts: 3, backoffMs: (n) => n * 1_000 });
    await submitter.submit(batch(0));
    await jest.advanceTimersByTimeAsync(999);
    expect(sentAt).toEqual([0]);
    await jest.advanceTimersByTimeAsync(1);
    expect(sentAt).toEqual([0, 1_000]);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(sentAt).toEqual([0, 1_000, 3_000]);
    await submitter.drain();
    expect(stats).toMatchObject({ batchesSent: 1, batchesFailed: 0, hitsImported: 2 });
  });
});
