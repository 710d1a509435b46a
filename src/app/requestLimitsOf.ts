import type { Config } from '../config/loadConfig';
import type { RequestLimits } from '../graphql/guard/RequestLimits';

/**
 * A server's limits from its configuration: its `limits` (the GraphQL ones among them), and the batch sizes as the
 * per-request sums.
 */
export function requestLimitsOf(
  config: Pick<Config, 'limits' | 'ingest' | 'impressions'>,
): Config['limits'] & RequestLimits {
  return {
    ...config.limits,
    maxHitsPerRequest: config.ingest.maxBatchSize,
    maxImpressionsPerRequest: config.impressions.maxBatchSize,
  };
}
