import {
  MongoBulkWriteError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
  MongoWriteConcernError,
} from 'mongodb';
import type { BulkWriteResult } from 'mongodb';
import { ServiceUnavailableError } from '../../../src/errors/ServiceUnavailableError';
import { isUnavailable, translateDriverError, unavailableCauseOf } from '../../../src/store/translateDriverError';

const EMPTY_RESULT = {} as BulkWriteResult;

/** A bulk write that failed as a whole, the way the driver reports a socket error during one. */
function bulkFailure(message: string, code: number | string | undefined): MongoBulkWriteError {
  return new MongoBulkWriteError({ message, code: code as number, writeErrors: [] }, EMPTY_RESULT);
}

describe('translateDriverError', () => {
  it.each([
    ['a refused connection', 'connect ECONNREFUSED 127.0.0.1:27017', 'ECONNREFUSED'],
    ['a write to a socket the server closed', 'This socket has been ended by the other party', 'EPIPE'],
    ['a reset connection', 'read ECONNRESET', 'ECONNRESET'],
    ['a closed connection, by message only', 'connection 3 to 127.0.0.1:27017 closed', undefined],
    ['a server shutting down', 'interrupted at shutdown', 11600],
  ])('maps %s inside a bulk write to SERVICE_UNAVAILABLE, keeping the cause', (_what, message, code) => {
    const error = bulkFailure(message, code);
    expect(isUnavailable(error)).toBe(true);
    const translated = translateDriverError(error);
    expect(translated).toBeInstanceOf(ServiceUnavailableError);
    expect((translated as Error).cause).toBe(error);
  });

  it('leaves per-operation write errors and other server errors alone', () => {
    const perOperation = new MongoBulkWriteError(
      { message: 'E11000 duplicate key', code: 11000, writeErrors: [{ index: 0, code: 11000 }] as never },
      EMPTY_RESULT,
    );
    expect(translateDriverError(perOperation)).toBe(perOperation);
    const badValue = new MongoServerError({ message: 'bad value', code: 2 });
    expect(translateDriverError(badValue)).toBe(badValue);
    const unknownCode = bulkFailure('something else', 'EWHATEVER');
    expect(translateDriverError(unknownCode)).toBe(unknownCode);
  });
});

/** The driver's pool error when no connection came free in time (its class is not exported). */
function waitQueueTimeout(): Error {
  const error = new Error('Timed out while checking out a connection from connection pool');
  Object.defineProperty(error, 'name', { value: 'MongoWaitQueueTimeoutError' });
  return error;
}

describe('unavailableCauseOf', () => {
  it.each([
    ['a socket timeout', new MongoNetworkTimeoutError('connection 2 to 127.0.0.1:27017 timed out'), 'timeout'],
    ['MaxTimeMSExpired', new MongoServerError({ message: 'operation exceeded time limit', code: 50 }), 'timeout'],
    ['no free connection in time', waitQueueTimeout(), 'connection_wait'],
    [
      'no free connection, inside a bulk write',
      new MongoBulkWriteError(waitQueueTimeout() as never, EMPTY_RESULT),
      'connection_wait',
    ],
    ['a refused connection', new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017'), 'refused'],
    ['no server to select', new MongoServerSelectionError('Server selection timed out', {} as never), 'refused'],
    ['a closed client', new MongoTopologyClosedError(), 'closed'],
    ['a primary stepping down', new MongoServerError({ message: 'not primary', code: 10107 }), 'no_primary'],
    [
      'a socket timeout, by message inside a bulk write',
      bulkFailure('connection 2 to 127.0.0.1:1 timed out', undefined),
      'timeout',
    ],
    ['a reset, by code inside a bulk write', bulkFailure('read ECONNRESET', 'ECONNRESET'), 'refused'],
  ])('names %s %s', (_what, error, cause) => {
    expect(isUnavailable(error)).toBe(true);
    expect(unavailableCauseOf(error)).toBe(cause);
    expect((translateDriverError(error) as ServiceUnavailableError).why).toBe(cause);
  });

  it('names an unmet write concern write_concern', () => {
    const error = new MongoWriteConcernError({
      writeConcernError: { code: 64, errmsg: 'waiting for replication timed out' },
    } as never);
    expect((translateDriverError(error) as ServiceUnavailableError).why).toBe('write_concern');
  });
});
