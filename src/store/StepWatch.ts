/**
 * Times the steps of background work (expiry sweeps, preallocation): each step is one database call or a few, and
 * one that takes longer than the stall threshold is logged with what it was doing, since a long step holds the
 * connection it runs on and whatever waits behind it (issue 21). Every step's duration goes to `observe` (metrics).
 */
import type { Logger } from '../logging/createLogger';

/** Runs one step of a background job: `what` says what it does ("deleting 250 expired second-level documents"). */
export type StepWatch = <T>(what: string, step: () => Promise<T>) => Promise<T>;

/** A step taking longer than this is a stall worth a warning. */
export const STALL_MS = 1_000;

/** A watch that only runs the step (tests, one-off callers). */
export const unwatched: StepWatch = (_what, step) => step();

export function createStepWatch(
  job: string,
  options: {
    readonly logger: Logger;
    /** Receives every step's duration in seconds. */
    readonly observe?: ((job: string, seconds: number) => void) | undefined;
    readonly stallMs?: number | undefined;
    readonly now?: (() => number) | undefined;
  },
): StepWatch {
  const now = options.now ?? (() => performance.now());
  const stallMs = options.stallMs ?? STALL_MS;
  return async (what, step) => {
    const started = now();
    try {
      return await step();
    } finally {
      const ms = now() - started;
      options.observe?.(job, ms / 1000);
      if (ms > stallMs) {
        options.logger.warn(
          { job, step: what, ms: Math.round(ms) },
          `background work stalled: ${what} took ${Math.round(ms)} ms`,
        );
      }
    }
  };
}
