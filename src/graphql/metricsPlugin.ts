/**
 * Counts and times GraphQL requests by operation name, counts a request refused as a whole (no data) with
 * countRejection and one answering SERVICE_UNAVAILABLE anywhere with countUnavailable. Names are client-chosen, so only well-formed ones become labels, and past a cap new names fold
 * into "other" to bound cardinality. WebSocket operations use the same labeller and countRejection
 * (attachSubscriptions), so both transports show up in the same series.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { unavailableCause } from '../errors/ServiceUnavailableError';
import { countRejection } from '../metrics/countRejection';
import { countUnavailable } from '../metrics/countUnavailable';
import type { Metrics } from '../metrics/createMetrics';

const MAX_OPERATION_LABELS = 200;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export type OperationLabel = (name: string | null | undefined) => string;

export function createOperationLabel(): OperationLabel {
  const seen = new Set<string>();
  return (name) => {
    if (!name) return 'anonymous';
    if (!NAME.test(name)) return 'other';
    if (seen.has(name)) return name;
    if (seen.size >= MAX_OPERATION_LABELS) return 'other';
    seen.add(name);
    return name;
  };
}

export function metricsPlugin<TContext extends object>(
  metrics: Metrics,
  label: OperationLabel,
): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      const stop = metrics.graphqlDuration.startTimer();
      return {
        async willSendResponse({ operationName, errors, response }) {
          const operation = label(operationName);
          const failed =
            (errors?.length ?? 0) > 0 ||
            (response.body.kind === 'single' && (response.body.singleResult.errors?.length ?? 0) > 0);
          stop({ operation });
          metrics.graphqlRequests.inc({ operation, outcome: failed ? 'error' : 'ok' });
          // No data at all: the request was refused as a whole, before execution. Its first error, as sent, says why.
          if (response.body.kind === 'single' && response.body.singleResult.data === undefined) {
            countRejection(metrics, response.body.singleResult.errors?.[0]?.extensions);
          }
          // The errors as raised (a field's SERVICE_UNAVAILABLE with its cause), once per answer.
          countUnavailable(
            metrics,
            errors?.map(unavailableCause).find((cause) => cause !== undefined),
          );
        },
      };
    },
  };
}
