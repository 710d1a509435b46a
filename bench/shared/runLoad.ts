/**
 * Closed-loop load: `concurrency` workers each run one operation at a time until the time budget or the
 * operation count runs out (whichever first), then wait for what is in flight. Nothing runs unbounded.
 */
import { elapsedMs } from './stats';

export interface LoadResult {
  readonly operations: number;
  /** Hits acknowledged (an operation may carry many). */
  readonly hits: number;
  readonly errors: number;
  readonly firstError?: string;
  readonly elapsedMs: number;
  readonly latenciesMs: number[];
}

export async function runLoad(options: {
  concurrency: number;
  durationMs: number;
  maxOperations: number;
  /** Performs operation `index` and resolves to the hits it wrote. */
  operation: (index: number) => Promise<number>;
}): Promise<LoadResult> {
  const start = process.hrtime.bigint();
  let next = 0;
  let hits = 0;
  let errors = 0;
  let firstError: string | undefined;
  const latenciesMs: number[] = [];
  const worker = async (): Promise<void> => {
    while (next < options.maxOperations && elapsedMs(start) < options.durationMs) {
      const index = next++;
      const began = process.hrtime.bigint();
      try {
        const written = await options.operation(index);
        hits += written;
        latenciesMs.push(elapsedMs(began));
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return {
    operations: latenciesMs.length + errors,
    hits,
    errors,
    ...(firstError === undefined ? {} : { firstError }),
    elapsedMs: elapsedMs(start),
    latenciesMs,
  };
}
