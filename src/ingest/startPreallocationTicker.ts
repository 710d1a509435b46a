/**
 * Once a minute, preallocates the next period's documents for the pages whose slot has come (see
 * PreallocationPlanner): tomorrow's daily and monthly documents, or the next hour's second-level minutes, a few
 * pages per write (Preallocation.pagesPerWrite), so no write holds a collection's writer for long (issue 21).
 */
import type { Logger } from '../logging/createLogger';
import { unwatched } from '../store/StepWatch';
import type { StepWatch } from '../store/StepWatch';
import type { PageRef, PreallocationPlanner } from './PreallocationPlanner';

const TICK_MS = 60_000;

/** One kind of preallocation: whose pages are due (the planner) and how their next period is created. */
export interface Preallocation {
  readonly planner: PreallocationPlanner;
  /** Creates the zero-filled documents of `pages` for the period starting at `periodStart`; idempotent. */
  readonly preallocate: (pages: PageRef[], periodStart: number) => Promise<void>;
  /** What is preallocated, for the logs ("tomorrow", "next hour's seconds"). */
  readonly what: string;
  /**
   * Pages per preallocate call: each call is a write on the collections' writers, and a flush waits for a call in
   * progress, so a call stays small (a few hundred documents) and the ticker yields between calls.
   */
  readonly pagesPerWrite: number;
}

export function startPreallocationTicker(
  options: Preallocation & { clock: () => number; logger: Logger; tickMs?: number; watch?: StepWatch },
): { stop(): void; tick(): Promise<number> } {
  const { planner, preallocate, what, clock, logger } = options;
  const watch = options.watch ?? unwatched;
  const size = Math.max(1, Math.floor(options.pagesPerWrite));
  let stopped = false;
  const tick = async (): Promise<number> => {
    const now = clock();
    const due = planner.due(now);
    const periodStart = planner.nextPeriod(now);
    for (let i = 0; i < due.length && !stopped; i += size) {
      const pages = due.slice(i, i + size);
      await watch(`preallocating ${what} for ${pages.length} pages`, () => preallocate(pages, periodStart));
      // Whoever queued for the writers meanwhile (a flush) goes before the next call.
      await yieldToIo();
    }
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
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
    tick,
  };
}

/** Lets whatever is queued (I/O callbacks, a flush waiting for the connection) run first. */
function yieldToIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
