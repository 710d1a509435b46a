/**
 * One named step of close(), watched: a step still running after SLOW_STEP_MS is logged with its name at once (a
 * stop that hangs says where while it hangs), and again with its duration when it ends.
 */
import type { Logger } from '../logging/createLogger';

export const SLOW_STEP_MS = 2_000;

export function shutdownStep(logger: Logger): (name: string, run: () => Promise<void>) => Promise<void> {
  return async (name, run) => {
    const started = performance.now();
    const watch = setTimeout(
      () => logger.warn({ step: name }, `shutdown: ${name} still running after 2 s`),
      SLOW_STEP_MS,
    );
    watch.unref();
    try {
      await run();
    } finally {
      clearTimeout(watch);
      const ms = Math.round(performance.now() - started);
      if (ms > SLOW_STEP_MS) logger.warn({ step: name, ms }, `shutdown: ${name} took ${ms} ms`);
    }
  };
}
