import { waitFor } from '../../support/waitFor';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Runs `wait` to its end on fake time, advancing `stepMs` at a time. */
async function settle<T>(wait: Promise<T>, stepMs = 10): Promise<PromiseSettledResult<T>> {
  let result: PromiseSettledResult<T> | undefined;
  wait.then(
    (value) => (result = { status: 'fulfilled', value }),
    (reason: unknown) => (result = { status: 'rejected', reason }),
  );
  for (let i = 0; i < 10_000 && result === undefined; i++) await jest.advanceTimersByTimeAsync(stepMs);
  if (!result) throw new Error('the wait neither resolved nor rejected within 100 s of fake time');
  return result;
}

describe('waitFor', () => {
  it('resolves with the first value that satisfies the condition, polling at the interval', async () => {
    let reads = 0;
    const wait = waitFor(() => ++reads, { until: (n) => n >= 3, timeoutMs: 1_000, intervalMs: 100, what: 'three' });
    expect(await settle(wait)).toEqual({ status: 'fulfilled', value: 3 });
    expect(reads).toBe(3);
  });

  it('treats a truthy value as done when no condition is given', async () => {
    let ready = false;
    setTimeout(() => (ready = true), 250);
    expect(await settle(waitFor(() => ready, { timeoutMs: 1_000, what: 'ready' }))).toEqual({
      status: 'fulfilled',
      value: true,
    });
  });

  it('fails at the deadline naming what it waited for and the last value it read', async () => {
    let reads = 0;
    const wait = waitFor(() => ({ acknowledged: ++reads }), {
      until: () => false,
      timeoutMs: 1_000,
      intervalMs: 100,
      what: '200 acknowledged hits',
    });
    const result = await settle(wait);
    expect(result).toEqual({
      status: 'rejected',
      reason: new Error(
        `timed out after 1000 ms waiting for 200 acknowledged hits; last value: {"acknowledged":${reads}}`,
      ),
    });
    expect(reads).toBeGreaterThanOrEqual(10);
  });

  it('fails at the deadline when a read never answers', async () => {
    const wait = waitFor(() => new Promise<number>(() => undefined), { timeoutMs: 500, what: 'an answer' });
    expect(await settle(wait)).toEqual({
      status: 'rejected',
      reason: new Error(
        'timed out after 500 ms waiting for an answer; last value: none (the first read did not answer)',
      ),
    });
  });

  it('fails at once with the error a read throws', async () => {
    const wait = waitFor(
      async () => {
        throw new Error('the request finished first');
      },
      { timeoutMs: 1_000, what: 'a document' },
    );
    expect(await settle(wait)).toEqual({ status: 'rejected', reason: new Error('the request finished first') });
  });
});
