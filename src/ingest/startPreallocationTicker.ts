/**
 * Once a minute, preallocates the next period's documents for the pages whose slot has come (see
 * PreallocationPlanner): tomorrow's daily and monthly documents, or the next hour's second-level minutes.
 */
import type { Logger } from '../logging/createLogger';
import type { PageRef, PreallocationPlanner } from './PreallocationPlanner';

const TICK_MS = 60_000;
const CHUNK = 500;

/** One kind of preallocation: whose pages are due (the planner) and how their next period is created. */
export interface Preallocation {
  readonly planner: PreallocationPlanner;
  /** Creates the zero-filled documents of `pages` for the period starting at `periodStart`; idempotent. */
  readonly preallocate: (pages: PageRef[], periodStart: number) => Promise<void>;
  /** What is preallocated, for the logs ("tomorrow", "next hour's seconds"). */
  readonly what: string;
}

export function startPreallocationTicker(
  options: Preallocation & { clock: () => number; logger: Logger; tickMs?: number },
): { stop(): void; tick(): Promise<number> } {
  const { planner, preallocate, what, clock, logger } = options;
  const tick = async (): Promise<number> => {
    const now = clock();
    const due = planner.due(now);
    const periodStart = planner.nextPeriod(now);
    for (let i = 0; i < due.length; i += CHUNK) await preallocate(due.slice(i, i + CHUNK), periodStart);
    if (due.length > 0) {
      logger.debug({ pages: due.length, period: new Date(periodStart).toISOString() }, `preallocated ${what}`);
    }
    return due.length;
  };
  const timer = setInterval(() => {
    tick().catch((error: unknown) =>
      logger.warn({ err: error }, `preallocation of ${what} failed; upserts still create documents`),
    );
  }, options.tickMs ?? TICK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), tick };
}
