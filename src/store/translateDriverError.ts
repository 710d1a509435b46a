/** Turns "the database is unreachable" driver errors into a typed, retryable error; others pass unchanged. */
import { MongoNetworkError, MongoNotConnectedError, MongoServerSelectionError, MongoWriteConcernError } from 'mongodb';
import { ServiceUnavailableError } from '../errors/ServiceUnavailableError';

export function translateDriverError(error: unknown): unknown {
  if (
    error instanceof MongoNetworkError ||
    error instanceof MongoServerSelectionError ||
    error instanceof MongoNotConnectedError
  ) {
    return new ServiceUnavailableError();
  }
  if (error instanceof MongoWriteConcernError) {
    return new ServiceUnavailableError(
      'the database did not acknowledge the write with the configured write concern; retry later',
    );
  }
  return error;
}
