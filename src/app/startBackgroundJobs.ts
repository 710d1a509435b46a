/**
 * Runs the hit pipeline's periodic jobs while the server serves: expiry sweeps (where the write policy said
 * 'sweep') and preallocation tickers (where switched on), behind one stop().
 *
 * Invariants:
 * - Timers are unref'd: they never keep the process alive, and a failed run is logged and retried next tick.
 * - Every step of a job (one read or delete of a sweep, one preallocation write) is watched: its duration goes to
 *   tally_background_step_duration_seconds{job}, and a step over a second is logged with what it was doing.
 * - stop() clears every timer at once; a run in progress ends at its next step (its writes are idempotent), and
 *   the caller drains pending hits and closes the database after stop().
 */
import type { HitPipelineJobs } from '../ingest/openHitPipeline';
import { startPreallocationTicker } from '../ingest/startPreallocationTicker';
import type { Logger } from '../logging/createLogger';
import type { Metrics } from '../metrics/createMetrics';
import { createStepWatch } from '../store/StepWatch';
import { startSweeper } from '../store/ttlOrSweep';
import type { Sweep } from '../store/ttlOrSweep';
import { observeBackgroundStep } from './pipelineMetrics';

export interface BackgroundJobs {
  stop(): void;
}

export function startBackgroundJobs(
  jobs: HitPipelineJobs,
  clock: () => number,
  logger: Logger,
  metrics?: Metrics,
): BackgroundJobs {
  const observe = metrics ? observeBackgroundStep(metrics) : undefined;
  const watch = (job: string) => createStepWatch(job, { logger, observe });
  const counted = (sweep: Sweep): Sweep =>
    metrics
      ? {
          ...sweep,
          sweep: async (now, context) => {
            const deleted = await sweep.sweep(now, context);
            metrics.sweptDocuments.inc({ what: sweep.what }, deleted);
            return deleted;
          },
        }
      : sweep;
  const running = [
    ...jobs.sweeps.map((sweep) => startSweeper(counted(sweep), clock, logger, watch(`sweep ${sweep.what}`))),
    ...jobs.preallocations.map((preallocation) =>
      startPreallocationTicker({ ...preallocation, clock, logger, watch: watch(`preallocate ${preallocation.what}`) }),
    ),
  ];
  return { stop: () => running.forEach((job) => job.stop()) };
}
