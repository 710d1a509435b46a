/** Per-request GraphQL context: shared services, who is asking, and a fresh set of DataLoaders (never module-level). */
import type { Principal } from '../auth/Principal';
import { EventLoader } from '../query/events/EventLoader';
import { StatsLoader } from '../query/StatsLoader';
import { ResponseNotes } from './ResponseNotes';
import type { Services } from './Services';

export interface Loaders {
  /** Series and breakdowns: one batch, one find per source, per request. */
  readonly stats: StatsLoader;
  /** Event documents (events, properties, conversions): one find per event collection per request. */
  readonly events: EventLoader;
}

export interface Context {
  readonly services: Services;
  readonly loaders: Loaders;
  /** Checked against each root field's policy before execution (src/graphql/guard). */
  readonly principal: Principal;
  /** The `Idempotency-Key` HTTP header, if the request had exactly one. */
  readonly idempotencyKeyHeader?: string | undefined;
  /** What the response's `extensions` should say (responseNotesPlugin). */
  readonly notes: ResponseNotes;
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
    loaders: { stats: new StatsLoader(services.seriesReader), events: new EventLoader(services.eventStore) },
    notes: new ResponseNotes(),
    idempotencyKeyHeader: Array.isArray(header) ? header.join(', ') : header,
  };
}
