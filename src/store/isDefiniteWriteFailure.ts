/**
 * Whether a failed write can no longer reach the database. A server's answer (a write error, a refused command)
 * is definite. Anything else — a network error, a timeout, an unacknowledged write concern — is not: the command
 * may still be applied, so only the lease may hand its request to another attempt (issue 9).
 */
import { MongoServerError, MongoWriteConcernError } from 'mongodb';

export function isDefiniteWriteFailure(error: unknown): boolean {
  return error instanceof MongoServerError && !(error instanceof MongoWriteConcernError);
}
