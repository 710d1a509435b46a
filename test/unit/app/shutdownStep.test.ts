import pino from 'pino';
import { shutdownStep, SLOW_STEP_MS } from '../../../src/app/shutdownStep';

function recordingLogger(): { logger: pino.Logger; messages: string[] } {
  const messages: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => messages.push(JSON.parse(line).msg as string) });
  return { logger, messages };
}

describe('shutdownStep', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('says which step is still running once it passes the limit, and how long it took when it ends', async () => {
    const { logger, messages } = recordingLogger();
    let finish = (): void => undefined;
    const running = shutdownStep(logger)('closing HTTP', () => new Promise<void>((resolve) => (finish = resolve)));
    jest.advanceTimersByTime(SLOW_STEP_MS - 1);
    expect(messages).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(messages).toEqual(['shutdown: closing HTTP still running after 2 s']);
    jest.advanceTimersByTime(3_000);
    finish();
    await running;
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatch(/^shutdown: closing HTTP took \d+ ms$/);
  });

  it('logs nothing for a quick step, and passes a failure on after clearing its watch', async () => {
    const { logger, messages } = recordingLogger();
    const step = shutdownStep(logger);
    await step('closing the database', async () => undefined);
    await expect(
      step('writing pending hits', async () => {
        throw new Error('write failed');
      }),
    ).rejects.toThrow('write failed');
    jest.advanceTimersByTime(10 * SLOW_STEP_MS);
    expect(messages).toEqual([]);
  });
});
