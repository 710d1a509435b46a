/**
 * The hit pipeline's trouble, in the process metrics (issue 21): each flush's duration, size and the requests
 * waiting when it starts; each re-send of a flush; each step of background work, and what the sweeps deleted.
 */
import type { FlushRetry } from '../ingest/createFlushWriter';
import type { FlushObserver } from '../ingest/GroupCommitter';
import type { Metrics } from '../metrics/createMetrics';

export function flushObserver(metrics: Metrics): FlushObserver {
  return {
    started(documents, waiting) {
      metrics.flushDocuments.observe(documents);
      metrics.flushQueueDepth.observe(waiting);
    },
    settled(seconds, ok) {
      metrics.flushDuration.observe({ outcome: ok ? 'ok' : 'error' }, seconds);
    },
  };
}

export function countFlushRetry(metrics: Metrics): NonNullable<FlushRetry['onRetry']> {
  return (outcome) => metrics.flushRetries.inc({ outcome });
}

export function observeBackgroundStep(metrics: Metrics): (job: string, seconds: number) => void {
  return (job, seconds) => metrics.backgroundStepDuration.observe({ job }, seconds);
}
