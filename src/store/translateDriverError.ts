/**
 * Turns "the database can't be reached, or did not answer in time" driver errors into a typed, retryable
 * SERVICE_UNAVAILABLE; every other error passes unchanged (and is masked as an internal error further up).
 */
import {
  MongoBulkWriteError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from 'mongodb';
import { ServiceUnavailableError } from '../errors/ServiceUnavailableError';

/**
 * Server codes that mean "not now": shutting down, stepping down, no primary, or out of time
 * (HostUnreachable, HostNotFound, NetworkTimeout, ShutdownInProgress, PrimarySteppedDown, NotWritablePrimary,
 * InterruptedAtShutdown, InterruptedDueToReplStateChange, NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary,
 * MaxTimeMSExpired, ExceededTimeLimit).
 */
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 10107, 11600, 11602, 13435, 13436, 50, 262]);

/**
 * The driver reports a network failure inside a bulk write as a MongoBulkWriteError that carries only the
 * original message (`connect ECONNREFUSED …`, `connection 3 to … closed`, `… timed out`) and the socket's error
 * code: a write to a socket the server closed is `EPIPE` with the message "This socket has been ended by the other
 * party" (seen when the embedded FerretDB is killed mid-ingest under load).
 */
const NETWORK_MESSAGE =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|connection .* (closed|timed out)|timed out|Server selection|socket has been ended/i;
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

export function isUnavailable(error: unknown): boolean {
  if (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoServerClosedError
  ) {
    return true;
  }
  if (error instanceof MongoBulkWriteError) {
    const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    if (writeErrors.length === 0 && error.err === undefined) {
      const code: unknown = error.code;
      return (
        (typeof code === 'number' && UNAVAILABLE_CODES.has(code)) ||
        (typeof code === 'string' && NETWORK_CODES.has(code)) ||
        NETWORK_MESSAGE.test(error.message)
      );
    }
    return false;
  }
  if (error instanceof MongoServerError && !(error instanceof MongoWriteConcernError)) {
    return typeof error.code === 'number' && UNAVAILABLE_CODES.has(error.code);
  }
  return false;
}

export function translateDriverError(error: unknown): unknown {
  if (error instanceof ServiceUnavailableError) return error;
  // The driver's error stays as `cause`: whether a failed write may still be applied depends on it (issue 9).
  if (isUnavailable(error)) return Object.assign(new ServiceUnavailableError(), { cause: error });
  if (error instanceof MongoWriteConcernError || (error instanceof MongoBulkWriteError && error.err !== undefined)) {
    return Object.assign(
      new ServiceUnavailableError(
        'the database did not acknowledge the write with the configured write concern; retry later',
      ),
      { cause: error },
    );
  }
  return error;
}
