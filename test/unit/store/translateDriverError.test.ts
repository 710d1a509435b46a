import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import type { BulkWriteResult } from 'mongodb';
import { ServiceUnavailableError } from '../../../src/errors/ServiceUnavailableError';
import { isUnavailable, translateDriverError } from '../../../src/store/translateDriverError';

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
