/**
 * Turns "the database can't be reached, or did not answer in time" driver errors into a typed, retryable
 * SERVICE_UNAVAILABLE, with the cause the metrics count it by (timeout, connection_wait, refused, …); every other
 * error passes unchanged (and is masked as an internal error further up).
 */
import {
  MongoBulkWriteError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from 'mongodb';
import { ServiceUnavailableError } from '../errors/ServiceUnavailableError';
import type { UnavailableCause } from '../errors/ServiceUnavailableError';

/**
 * Server codes that mean "not now": shutting down, stepping down, no primary, or out of time
 * (HostUnreachable, HostNotFound, NetworkTimeout, ShutdownInProgress, PrimarySteppedDown, NotWritablePrimary,
 * InterruptedAtShutdown, InterruptedDueToReplStateChange, NotPrimaryNoSecondaryOk, NotPrimaryOrSecondary,
 * MaxTimeMSExpired, ExceededTimeLimit).
 */
const UNAVAILABLE_CODES = new Set([6, 7, 89, 91, 189, 10107, 11600, 11602, 13435, 13436, 50, 262]);
const TIMEOUT_CODES = new Set([50, 89, 262]);
const UNREACHABLE_CODES = new Set([6, 7]);
/**
 * Waiting for a pooled connection timed out (waitQueueTimeoutMS): nothing was sent. The driver does not export the
 * class; its name is stable.
 */
const WAIT_QUEUE_TIMEOUT = 'MongoWaitQueueTimeoutError';
const WAIT_QUEUE_MESSAGE = /checking out a connection/i;

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
    isWaitQueueTimeout(error) ||
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
  if (isUnavailable(error)) {
    return Object.assign(new ServiceUnavailableError(undefined, unavailableCauseOf(error)), { cause: error });
  }
  if (error instanceof MongoWriteConcernError || (error instanceof MongoBulkWriteError && error.err !== undefined)) {
    return Object.assign(
      new ServiceUnavailableError(
        'the database did not acknowledge the write with the configured write concern; retry later',
        'write_concern',
      ),
      { cause: error },
    );
  }
  return error;
}

/** Why an unavailable-database driver error happened (see UnavailableCause). */
export function unavailableCauseOf(error: unknown): UnavailableCause {
  // A bulk write wraps a driver error whole (as `errorResponse`) and copies its message and code.
  const inner =
    error instanceof MongoBulkWriteError && error.errorResponse instanceof Error ? error.errorResponse : error;
  if (isWaitQueueTimeout(inner)) return 'connection_wait';
  if (inner instanceof MongoNetworkTimeoutError || inner instanceof MongoOperationTimeoutError) return 'timeout';
  if (inner instanceof MongoTopologyClosedError || inner instanceof MongoNotConnectedError) return 'closed';
  if (inner instanceof MongoServerClosedError) return 'closed';
  if (inner instanceof MongoNetworkError || inner instanceof MongoServerSelectionError) return 'refused';
  const code: unknown = (inner as { code?: unknown } | null)?.code;
  if (typeof code === 'number') {
    if (TIMEOUT_CODES.has(code)) return 'timeout';
    if (UNREACHABLE_CODES.has(code)) return 'refused';
    if (UNAVAILABLE_CODES.has(code)) return 'no_primary';
  }
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return code === 'ETIMEDOUT' ? 'timeout' : 'refused';
  const message = inner instanceof Error ? inner.message : '';
  if (WAIT_QUEUE_MESSAGE.test(message)) return 'connection_wait';
  if (/timed out/i.test(message)) return 'timeout';
  return NETWORK_MESSAGE.test(message) ? 'refused' : 'other';
}

function isWaitQueueTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === WAIT_QUEUE_TIMEOUT;
}
