/** Per-request GraphQL context: shared services, who is asking, and a fresh set of DataLoaders (never module-level). */
import type DataLoader from 'dataloader';
import type { Principal } from '../auth/Principal';
import { createSeriesLoader } from '../query/createSeriesLoader';
import type { Series, SeriesRequest } from '../query/Series';
import type { Services } from './Services';

export interface Loaders {
  readonly series: DataLoader<SeriesRequest, Series, string>;
}

export interface Context {
  readonly services: Services;
  readonly loaders: Loaders;
  /** Checked against each root field's policy before execution (src/graphql/guard). */
  readonly principal: Principal;
  /** The `Idempotency-Key` HTTP header, if the request had exactly one. */
  readonly idempotencyKeyHeader?: string | undefined;
}

export function createContext(
  services: Services,
  principal: Principal,
  headers: Readonly<Record<string, string | string[] | undefined>> = {},
): Context {
  const header = headers['idempotency-key'];
  return {
    services,
    principal,
    loaders: { series: createSeriesLoader(services.seriesReader) },
    idempotencyKeyHeader: Array.isArray(header) ? header.join(', ') : header,
  };
}
