/**
 * bulkUpsert against the real server, with injected per-operation failures: lock-based engines (DocumentDB) answer
 * a deadlock victim with code 112 and MongoDB a WriteConflict with the same code; those operations were not
 * applied, so re-sending exactly them must count each increment once.
 */
import { MongoBulkWriteError } from 'mongodb';
import type {
  AnyBulkWriteOperation,
  BulkWriteOptions,
  BulkWriteResult,
  Collection,
  Document,
  WriteError,
} from 'mongodb';
import { bulkUpsert } from '../../src/store/bulkUpsert';
import type { BulkWritable } from '../../src/store/bulkUpsert';
import { ServiceUnavailableError } from '../../src/errors/ServiceUnavailableError';
import { connectTestDatabase } from '../support/testDatabase';
import type { TestDatabase } from '../support/testDatabase';

let database: TestDatabase;
let collection: Collection<Document>;

beforeAll(async () => {
  database = await connectTestDatabase('bulkUpsert');
  collection = database.db.collection('counters');
});

afterAll(async () => {
  await database.dropAndClose();
});

beforeEach(async () => {
  await collection.deleteMany({});
});

const increments = (ids: readonly string[]): AnyBulkWriteOperation<Document>[] =>
  ids.map((id) => ({ updateOne: { filter: { _id: id as never }, update: { $inc: { c: 1 } }, upsert: true } }));

// The shape the driver gives per-operation errors (its WriteError class is not exported as a value).
const writeError = (code: number, index: number): WriteError =>
  ({ code, index, errmsg: 'injected failure' }) as unknown as WriteError;

/** Applies the operations it is not told to fail, then reports the others as failed with `code`. */
class FailingFirstCall implements BulkWritable {
  readonly calls: string[][] = [];

  constructor(
    private readonly real: Collection<Document>,
    private readonly code: number,
    private readonly failing: (index: number) => boolean,
  ) {}

  async bulkWrite(operations: AnyBulkWriteOperation<Document>[], options: BulkWriteOptions): Promise<unknown> {
    this.calls.push(operations.map((op) => ('updateOne' in op ? String(op.updateOne.filter._id) : '?')));
    if (this.calls.length > 1 || !operations.some((_, index) => this.failing(index))) {
      return this.real.bulkWrite(operations, options);
    }
    const applied = operations.filter((_, index) => !this.failing(index));
    if (applied.length > 0) await this.real.bulkWrite(applied, options);
    const writeErrors = operations
      .map((_, index) => index)
      .filter((index) => this.failing(index))
      .map((index) => writeError(this.code, index));
    throw new MongoBulkWriteError(
      { message: 'Could not acquire lock for operation due to deadlock', code: this.code, writeErrors },
      {} as BulkWriteResult,
    );
  }
}

describe('bulkUpsert', () => {
  it('sends operations in ascending _id order', async () => {
    const writer = new FailingFirstCall(collection, 112, () => false);
    await bulkUpsert(writer, increments(['d', 'b', 'e', 'a', 'c']));
    expect(writer.calls).toEqual([['a', 'b', 'c', 'd', 'e']]);
  });

  it('re-sends exactly the operations that failed with a transient code, and counts each once', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => `doc${String(i).padStart(2, '0')}`);
    const writer = new FailingFirstCall(collection, 112, (index) => index % 3 === 0);
    await bulkUpsert(writer, increments(ids), { retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 } });
    expect(writer.calls).toHaveLength(2);
    expect(writer.calls[1]).toEqual(ids.filter((_, index) => index % 3 === 0));
    const stored = await collection.find({}).sort({ _id: 1 }).toArray();
    expect(stored.map((doc) => [doc._id, doc.c])).toEqual(ids.map((id) => [id, 1]));
  });

  it('does not retry an operation that failed for a reason that is not transient', async () => {
    const writer = new FailingFirstCall(collection, 2, (index) => index === 1);
    await expect(bulkUpsert(writer, increments(['a', 'b', 'c']))).rejects.toBeInstanceOf(MongoBulkWriteError);
    expect(writer.calls).toHaveLength(1);
    expect(await collection.countDocuments({})).toBe(2);
  });

  it('gives up after the retry budget and reports the database as unavailable only when it is', async () => {
    const always = {
      bulkWrite: () =>
        Promise.reject(
          new MongoBulkWriteError(
            { message: 'x', code: 112, writeErrors: [writeError(112, 0)] },
            {} as BulkWriteResult,
          ),
        ),
    };
    await expect(
      bulkUpsert(always, increments(['a']), { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }),
    ).rejects.toBeInstanceOf(MongoBulkWriteError);
    const refused = {
      bulkWrite: () =>
        Promise.reject(
          new MongoBulkWriteError({ message: 'connect ECONNREFUSED 127.0.0.1:1', code: 0 }, {} as BulkWriteResult),
        ),
    };
    await expect(bulkUpsert(refused, increments(['a']))).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
