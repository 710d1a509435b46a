/** The database cannot be reached or did not acknowledge a write; the client may retry. */
import { AppError } from './AppError';
import { findAppError } from './normalizeError';

/**
 * Why, for operators only (`tally_unavailable_total{cause}`; clients see the code and message): tally is starting
 * (`not_ready`), the database took longer than MONGODB_TIMEOUT_MS to answer (`timeout`), no connection came free in
 * that time (`connection_wait`: something held it), it refused or dropped the connection (`refused`), it has no
 * primary or is shutting down (`no_primary`), the write concern was not met (`write_concern`), tally is closing
 * (`closed`), the ingest log could not be written
 * (`log_write`: a full disk, an I/O error), anything else (`other`).
 */
export type UnavailableCause =
  | 'not_ready'
  | 'timeout'
  | 'connection_wait'
  | 'refused'
  | 'no_primary'
  | 'write_concern'
  | 'closed'
  | 'log_write'
  | 'other';

/**
 * What a refused request's Retry-After says: the longest wait between two attempts to reach the database at start-up
 * (app/openStores backs off up to 5 s), and about one MONGODB_TIMEOUT_MS at its default.
 */
export const RETRY_AFTER_SECONDS = 5;

export class ServiceUnavailableError extends AppError {
  readonly code = 'SERVICE_UNAVAILABLE' as const;
  override readonly httpStatus = 503;
  override readonly retryAfterSeconds = RETRY_AFTER_SECONDS;

  constructor(
    message = 'the database is unavailable; retry later',
    readonly why: UnavailableCause = 'other',
  ) {
    super(message);
    this.name = 'ServiceUnavailableError';
  }
}

/** The cause of a SERVICE_UNAVAILABLE error, wherever graphql-js or Apollo wrapped it; undefined for other errors. */
export function unavailableCause(error: unknown): UnavailableCause | undefined {
  const appError = findAppError(error);
  return appError instanceof ServiceUnavailableError ? appError.why : undefined;
}
