/**
 * Runs the hit pipeline's periodic jobs while the server serves: expiry sweeps (where the write policy said
 * 'sweep') and preallocation tickers (where switched on), behind one stop().
 *
 * Invariants:
 * - Timers are unref'd: they never keep the process alive, and a failed run is logged and retried next tick.
 * - stop() clears every timer at once; a run in progress finishes on its own (its writes are idempotent), and
 *   the caller drains pending hits and closes the database after stop().
 */
import type { HitPipelineJobs } from '../ingest/openHitPipeline';
import { startPreallocationTicker } from '../ingest/startPreallocationTicker';
import type { Logger } from '../logging/createLogger';
import { startSweeper } from '../store/ttlOrSweep';

export interface BackgroundJobs {
  stop(): void;
}

export function startBackgroundJobs(jobs: HitPipelineJobs, clock: () => number, logger: Logger): BackgroundJobs {
  const running = [
    ...jobs.sweeps.map((sweep) => startSweeper(sweep, clock, logger)),
    ...jobs.preallocations.map((preallocation) => startPreallocationTicker({ ...preallocation, clock, logger })),
  ];
  return { stop: () => running.forEach((job) => job.stop()) };
}
