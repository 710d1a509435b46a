/**
 * The base of every error a client may see. Anything that is not an AppError (or graphql-js's own request
 * errors) is masked as INTERNAL_SERVER_ERROR by formatError and logged with its stack.
 */
export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'BAD_REQUEST'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'LIMIT_EXCEEDED'
  | 'RATE_LIMITED'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_SERVER_ERROR'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'IDEMPOTENCY_KEY_IN_PROGRESS';

export abstract class AppError extends Error {
  abstract readonly code: ErrorCode;
  /** The HTTP status when this error refuses a whole request (field errors keep GraphQL's 200). */
  readonly httpStatus: number = 400;
}
