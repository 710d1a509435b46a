/**
 * The one map from an error to what a client sees, for every transport: GraphQL over HTTP and WebSocket (through
 * formatError), the REST routes and Fastify's own refusals (through installErrorHandler). It gives the HTTP status
 * (with the Retry-After seconds where the error has them), a bounded message and the extensions: `code`, plus `field`, `reason`, `limit`, `max`, `value` wherever the error
 * carries them. Anything it does not recognise is masked as INTERNAL_SERVER_ERROR; the caller logs it with its stack.
 */
import { AppError, STATUS_OF_CODE } from './AppError';
import type { ErrorCode } from './AppError';

/** Longest message a client receives; longer ones (graphql-js quotes inputs) are cut. */
export const MAX_MESSAGE_LENGTH = 500;

/** What a client may read of an error besides its message; the five optional keys are reserved on AppErrors. */
export interface ErrorExtensions {
  readonly code: string;
  /** The argument or parameter the problem is in: `hits[3].page`, `timeZone`, `idempotencyKey`. */
  readonly field?: string;
  /** Why an input was refused, from the closed RejectReason list. */
  readonly reason?: string;
  /** The environment variable that sets the limit (LIMIT_EXCEEDED, RATE_LIMITED). */
  readonly limit?: string;
  readonly max?: number;
  /** What the request had; absent when counting stopped at the limit (tokens). */
  readonly value?: number;
}

export interface NormalizedError {
  readonly status: number;
  readonly message: string;
  readonly extensions: ErrorExtensions;
  /** Our own error, wherever it was wrapped; undefined for errors that only carry a code, and for masked ones. */
  readonly appError: AppError | undefined;
  /** Nothing recognised: clients see "Internal server error" only, and the caller logs the error. */
  readonly masked: boolean;
  /** The `Retry-After` seconds of a whole request this error refuses (SERVICE_UNAVAILABLE); absent for most. */
  readonly retryAfterSeconds?: number;
}

const MASKED: NormalizedError = {
  status: 500,
  message: 'Internal server error',
  extensions: { code: 'INTERNAL_SERVER_ERROR' },
  appError: undefined,
  masked: true,
};

/**
 * In order: an AppError (itself, or the `originalError` graphql-js and Apollo wrap it in); an error that
 * carries a client code of its own (`extensions.code`: graphql-js's and Apollo's request errors; or one of our
 * codes as `code`: a hook's typed error); a framework's client refusal known only by its 4xx status (Fastify's
 * `statusCode`, Apollo's `extensions.http.status`), as BAD_REQUEST. Anything else is masked.
 */
export function normalizeError(error: unknown): NormalizedError {
  const appError = findAppError(error);
  if (appError) {
    return {
      status: appError.httpStatus,
      message: boundMessage(appError.message),
      extensions: { code: appError.code, ...carried(appError) },
      appError,
      masked: false,
      ...(appError.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: appError.retryAfterSeconds }),
    };
  }
  if (typeof error !== 'object' || error === null) return MASKED;
  const message = boundMessage(String((error as { message?: unknown }).message ?? ''));
  const code = ownCode(error);
  if (code !== undefined) {
    const status = httpStatus(error) ?? STATUS_OF_CODE[code as ErrorCode] ?? 400;
    return { status, message, extensions: { code, ...carried(error) }, appError: undefined, masked: false };
  }
  const status = httpStatus(error);
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, message, extensions: { code: 'BAD_REQUEST' }, appError: undefined, masked: false };
  }
  return MASKED;
}

export function boundMessage(text: string): string {
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH)}…` : text;
}

/** The AppError an error is, or wraps as `originalError` (graphql-js, Apollo), a few levels down. */
export function findAppError(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof AppError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

const CLIENT_CODES: ReadonlySet<string> = new Set(
  Object.keys(STATUS_OF_CODE).filter((code) => code !== 'INTERNAL_SERVER_ERROR'),
);

function ownCode(error: object): string | undefined {
  const nested = (error as { extensions?: { code?: unknown } }).extensions?.code;
  if (typeof nested === 'string') return nested === 'INTERNAL_SERVER_ERROR' ? undefined : nested;
  // Node's and the driver's errors carry codes too (ECONNRESET, 11000): only ours are a client's business.
  const direct = (error as { code?: unknown }).code;
  return typeof direct === 'string' && CLIENT_CODES.has(direct) ? direct : undefined;
}

function httpStatus(error: object): number | undefined {
  const fastify = (error as { statusCode?: unknown }).statusCode;
  const apollo = (error as { extensions?: { http?: { status?: unknown } } }).extensions?.http?.status;
  const status = typeof apollo === 'number' ? apollo : fastify;
  return typeof status === 'number' && Number.isInteger(status) ? status : undefined;
}

/** The reserved keys an error carries, each only when it has the wire's type. */
function carried(error: object): Omit<ErrorExtensions, 'code'> {
  const { field, reason, limit, max, value } = error as Record<string, unknown>;
  return {
    ...(typeof field === 'string' ? { field } : {}),
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(typeof limit === 'string' ? { limit } : {}),
    ...(typeof max === 'number' ? { max } : {}),
    ...(typeof value === 'number' ? { value } : {}),
  };
}
