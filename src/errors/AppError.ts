/**
 * The base of every error a client may see. normalizeError maps it to the wire for every transport; anything that
 * is not an AppError (or graphql-js's own request errors) is masked as INTERNAL_SERVER_ERROR and logged.
 */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'LIMIT_EXCEEDED'
  | 'RATE_LIMITED'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENCY_KEY_IN_PROGRESS';

/**
 * The HTTP status of each code when it refuses a whole request. An AppError subclass declares its own (some choose
 * per instance: 413 for a body, 415 for a content type); this table serves errors that carry only a code, such as
 * a hook's `Object.assign(new Error(…), { code: 'FORBIDDEN' })`, and a test keeps the two in step.
 */
export const STATUS_OF_CODE: Readonly<Record<ErrorCode, number>> = {
  BAD_USER_INPUT: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  LIMIT_EXCEEDED: 400,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_SERVER_ERROR: 500,
  IDEMPOTENCY_KEY_REUSED: 400,
  IDEMPOTENCY_KEY_IN_PROGRESS: 400,
};

export abstract class AppError extends Error {
  abstract readonly code: ErrorCode;
  /** The HTTP status when this error refuses a whole request (field errors keep GraphQL's 200). */
  readonly httpStatus: number = 400;
  /** When set, a whole request it refuses says `Retry-After` with these seconds: the client may come back then. */
  readonly retryAfterSeconds: number | undefined = undefined;
}
