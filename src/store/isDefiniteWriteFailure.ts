/**
 * Whether a failed write can no longer reach the database. A server's answer (a write error, a refused command,
 * even "shutting down") is definite: what it did not apply it never will. Anything else — a network error, a
 * timeout on the client, an unacknowledged write concern — is not: the command may still be applied, so only the
 * lease may hand its request to another attempt (issue 9). Looks through SERVICE_UNAVAILABLE to the driver error.
 */
import { MongoBulkWriteError, MongoServerError, MongoWriteConcernError } from 'mongodb';
import { ServiceUnavailableError } from '../errors/ServiceUnavailableError';

export function isDefiniteWriteFailure(error: unknown): boolean {
  const original = error instanceof ServiceUnavailableError ? error.cause : error;
  if (!(original instanceof MongoServerError) || original instanceof MongoWriteConcernError) return false;
  if (original instanceof MongoBulkWriteError) {
    // A bulk write error without write errors wraps a failure of the whole command: network or write concern.
    const writeErrors = Array.isArray(original.writeErrors) ? original.writeErrors : [original.writeErrors];
    return writeErrors.length > 0 && original.err === undefined;
  }
  return true;
}
