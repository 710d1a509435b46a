/**
 * What tally_unavailable_total counts: one answer (an HTTP response, or one WebSocket operation's result) that
 * carried SERVICE_UNAVAILABLE, by the cause of its first such error. Callers pass that cause (errors/
 * ServiceUnavailableError's unavailableCause), or undefined when the answer had none; a cause outside the closed
 * list is counted as `other`, so the label set stays bounded.
 */
import type { Metrics } from './createMetrics';

const CAUSES: ReadonlySet<string> = new Set([
  'not_ready',
  'timeout',
  'connection_wait',
  'refused',
  'no_primary',
  'write_concern',
  'closed',
  'other',
]);

export function countUnavailable(metrics: Pick<Metrics, 'unavailable'>, cause: string | undefined): void {
  if (cause === undefined) return;
  metrics.unavailable.inc({ cause: CAUSES.has(cause) ? cause : 'other' });
}
