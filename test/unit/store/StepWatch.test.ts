import { createLogger } from '../../../src/logging/createLogger';
import { createStepWatch } from '../../../src/store/StepWatch';

describe('createStepWatch', () => {
  function watched(durationMs: number) {
    const logger = createLogger({ level: 'silent', nodeEnv: 'test' });
    const warn = jest.spyOn(logger, 'warn');
    const observed: Array<[string, number]> = [];
    let now = 0;
    const watch = createStepWatch('sweep test documents', {
      logger,
      observe: (job, seconds) => observed.push([job, seconds]),
      now: () => now,
    });
    const run = watch('deleting 250 expired test documents', async () => {
      now += durationMs;
      return 'done';
    });
    return { run, warn, observed };
  }

  it('logs a step over a second with its job, what it was doing and how long it took', async () => {
    const { run, warn, observed } = watched(1_500);
    await expect(run).resolves.toBe('done');
    expect(warn).toHaveBeenCalledWith(
      { job: 'sweep test documents', step: 'deleting 250 expired test documents', ms: 1_500 },
      'background work stalled: deleting 250 expired test documents took 1500 ms',
    );
    expect(observed).toEqual([['sweep test documents', 1.5]]);
  });

  it('only observes a step of a second or less', async () => {
    const { run, warn, observed } = watched(1_000);
    await run;
    expect(warn).not.toHaveBeenCalled();
    expect(observed).toEqual([['sweep test documents', 1]]);
  });
});
