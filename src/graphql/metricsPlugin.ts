/**
 * Counts and times GraphQL requests by operation name. Names are client-chosen, so only well-formed ones
 * become labels, and past a cap new names fold into "other" to bound cardinality.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { Metrics } from '../metrics/createMetrics';

const MAX_OPERATION_LABELS = 200;
const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export function metricsPlugin<TContext extends object>(metrics: Metrics): ApolloServerPlugin<TContext> {
  const seen = new Set<string>();
  const label = (name: string | null | undefined): string => {
    if (!name) return 'anonymous';
    if (!NAME.test(name)) return 'other';
    if (seen.has(name)) return name;
    if (seen.size >= MAX_OPERATION_LABELS) return 'other';
    seen.add(name);
    return name;
  };
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
        },
      };
    },
  };
}
