/** Once a minute, preallocates tomorrow's documents for the pages whose slot has come (see PreallocationPlanner). */
import type { Logger } from '../logging/createLogger';
import type { CounterStore } from '../store/CounterStore';
import { tomorrow } from './PreallocationPlanner';
import type { PreallocationPlanner } from './PreallocationPlanner';

const TICK_MS = 60_000;
const CHUNK = 500;

export function startPreallocationTicker(options: {
  planner: PreallocationPlanner;
  store: CounterStore;
  clock: () => number;
  logger: Logger;
  tickMs?: number;
}): { stop(): void; tick(): Promise<number> } {
  const { planner, store, clock, logger } = options;
  const tick = async (): Promise<number> => {
    const now = clock();
    const due = planner.due(now);
    const day = tomorrow(now);
    for (let i = 0; i < due.length; i += CHUNK) {
      await store.preallocate(due.slice(i, i + CHUNK).map((ref) => ({ ...ref, day })));
    }
    if (due.length > 0) logger.debug({ pages: due.length, day: new Date(day).toISOString() }, 'preallocated tomorrow');
    return due.length;
  };
  const timer = setInterval(() => {
    tick().catch((error: unknown) =>
      logger.warn({ err: error }, 'preallocation failed; upserts still create documents'),
    );
  }, options.tickMs ?? TICK_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), tick };
}
