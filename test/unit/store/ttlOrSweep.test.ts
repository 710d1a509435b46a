import { createLogger } from '../../../src/logging/createLogger';
import { startSweeper, sweepPlanFor } from '../../../src/store/ttlOrSweep';

const logger = createLogger({ level: 'silent', nodeEnv: 'test' });
const NOW = Date.parse('2026-03-10T12:00:00Z');

/** A sweep whose runs the test settles by hand: `runs` holds the `now` of each, `settle` ends the current one. */
function manualSweep() {
  const runs: number[] = [];
  let settle: ((outcome: number | Error) => void) | undefined;
  const sweep = {
    what: 'test documents',
    intervalMs: 60_000,
    sweep: (now: number) =>
      new Promise<number>((resolve, reject) => {
        runs.push(now);
        settle = (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome));
      }),
  };
  return { sweep, runs, settle: (outcome: number | Error) => settle?.(outcome) };
}

describe('startSweeper', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sweeps once per interval at the clock of that tick, and not before the first interval', async () => {
    const { sweep, runs, settle } = manualSweep();
    let now = NOW;
    const sweeper = startSweeper(sweep, () => now, logger);
    expect(runs).toEqual([]);
    now += 60_000;
    await jest.advanceTimersByTimeAsync(60_000);
    settle(3);
    now += 60_000;
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs).toEqual([NOW + 60_000, NOW + 120_000]);
    sweeper.stop();
  });

  it('skips a tick while the previous sweep is still running', async () => {
    const { sweep, runs, settle } = manualSweep();
    const sweeper = startSweeper(sweep, () => NOW, logger);
    await jest.advanceTimersByTimeAsync(3 * 60_000);
    expect(runs).toHaveLength(1);
    settle(0);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs).toHaveLength(2);
    sweeper.stop();
  });

  it('keeps sweeping after a failed sweep', async () => {
    const { sweep, runs, settle } = manualSweep();
    const sweeper = startSweeper(sweep, () => NOW, logger);
    await jest.advanceTimersByTimeAsync(60_000);
    settle(new Error('the database is unavailable'));
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runs).toHaveLength(2);
    sweeper.stop();
  });

  it('sweeps no more once stopped', async () => {
    const { sweep, runs } = manualSweep();
    startSweeper(sweep, () => NOW, logger).stop();
    await jest.advanceTimersByTimeAsync(10 * 60_000);
    expect(runs).toEqual([]);
  });

  it('tells a sweep in progress to stop at its next step once stopped', async () => {
    const contexts: Array<{ stopped(): boolean }> = [];
    const sweep = {
      what: 'test documents',
      intervalMs: 60_000,
      sweep: (_now: number, context: { stopped(): boolean }) => {
        contexts.push(context);
        return new Promise<number>(() => undefined);
      },
    };
    const sweeper = startSweeper(sweep, () => NOW, logger);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(contexts[0]?.stopped()).toBe(false);
    sweeper.stop();
    expect(contexts[0]?.stopped()).toBe(true);
  });
});

describe('sweepPlanFor', () => {
  it.each([
    ['shardKeyRanges', { scan: 'range', deletes: 'idList' }],
    ['idList', { scan: 'head', deletes: 'idList' }],
    ['exactIds', { scan: 'head', deletes: 'exactIds' }],
  ] as const)('reads %s: %j', (reads, plan) => {
    expect(sweepPlanFor(reads)).toEqual(plan);
  });
});
