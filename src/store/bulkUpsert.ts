/**
 * Sends upserts as unordered bulk writes, in a stable global order, and retries exactly the operations the server
 * reports as not applied for a transient reason.
 *
 * - Order: operations are sorted by `_id`, so every writer acquires documents in the same order. Lock-based
 *   engines (DocumentDB, behind FerretDB 2 and Azure vCore) hold row locks for a whole write command; two
 *   commands taking the same rows in different orders deadlock there (code 112), in one order they queue.
 * - Retries: an operation that failed with E11000 (two upserts racing to create one document: the loser's
 *   retry finds the winner's document), with 112 (WriteConflict / lock-engine deadlock victim) or with a
 *   transient label is re-sent alone, after a bounded, jittered backoff. A per-operation write error means
 *   that operation was not applied, so re-sending it cannot count twice. A failure of the whole command (network,
 *   timeout) says nothing about which operations were applied and is never retried here.
 * - Size: `maxPerCommand` splits where the write policy says so (WritePolicy.maxUpdatesPerCommand).
 * - Marked writes (FlushMark, issue 9) are idempotent, so after per-operation errors they are re-sent after
 *   reading back which documents absorbed them already, instead of trusting the reported indexes: a guarded
 *   upsert whose document absorbed the attempt misses its filter and tries to insert, which is E11000 — "already
 *   applied", not a race — and FerretDB 1.24 stops an unordered bulk write at its first error and misreports its
 *   index.
 */
import { MongoBulkWriteError } from 'mongodb';
import type { AnyBulkWriteOperation, BulkWriteOptions, Document, FindOptions, WriteConcern } from 'mongodb';
import { isAbsorbed, markProjection } from './FlushMark';
import type { FlushMark } from './FlushMark';
import { translateDriverError } from './translateDriverError';
import type { WritePolicy } from './WritePolicy';

const DUPLICATE_KEY = 11000;
const WRITE_CONFLICT = 112;
const TRANSIENT_LABELS = ['TransientTransactionError', 'RetryableWriteError'];

export interface RetryPolicy {
  /** Attempts per operation, the first included. */
  readonly attempts: number;
  /** Backoff before the n-th retry: base × 2^(n-1), jittered, at most `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 10, maxDelayMs: 500 };

export interface BulkUpsertOptions {
  readonly writeConcern?: WriteConcern | undefined;
  readonly maxPerCommand?: number | undefined;
  readonly retry?: RetryPolicy | undefined;
  /** Set when every operation carries this exactly-once guard (see counterUpsert); needs a collection that can find. */
  readonly mark?: FlushMark | undefined;
  /**
   * False where the engine does not say which operations failed (WritePolicy.trustWriteErrorIndexes): unmarked
   * operations are then never re-sent, since the reported index may name one that was applied.
   */
  readonly trustWriteErrorIndexes?: boolean | undefined;
}

/** A store's bulk-write options: the write policy's command size and trust in error indexes, and the write concern. */
export function bulkUpsertOptions(policy: WritePolicy, writeConcern: string | number | undefined): BulkUpsertOptions {
  return {
    writeConcern: writeConcern === undefined ? undefined : { w: writeConcern as number | 'majority' },
    maxPerCommand: policy.maxUpdatesPerCommand,
    trustWriteErrorIndexes: policy.trustWriteErrorIndexes,
  };
}

/** What bulkUpsert needs of a collection: the driver's Collection, or a fault-injecting wrapper in tests. */
export interface BulkWritable {
  bulkWrite(operations: AnyBulkWriteOperation<Document>[], options: BulkWriteOptions): Promise<unknown>;
  /** Reads back marked documents (marked writes only). */
  find?(filter: Document, options: FindOptions): { toArray(): Promise<Document[]> };
}

export async function bulkUpsert(
  collection: BulkWritable,
  operations: AnyBulkWriteOperation<Document>[],
  options: BulkUpsertOptions = {},
): Promise<void> {
  const sorted = sortById(operations);
  const size = options.maxPerCommand ?? sorted.length;
  for (let start = 0; start < sorted.length; start += size) {
    await bulkUpsertOnce(collection, sorted.slice(start, start + size), options);
  }
}

/** Operations in ascending `_id` order (updateOne/insertOne/replaceOne/deleteOne; others keep their place last). */
export function sortById(operations: readonly AnyBulkWriteOperation<Document>[]): AnyBulkWriteOperation<Document>[] {
  const keyed = operations.map((operation) => ({ operation, id: operationId(operation) }));
  keyed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return keyed.map((entry) => entry.operation);
}

function operationId(operation: AnyBulkWriteOperation<Document>): string {
  const filter =
    'updateOne' in operation
      ? operation.updateOne.filter
      : 'replaceOne' in operation
        ? operation.replaceOne.filter
        : 'deleteOne' in operation
          ? operation.deleteOne.filter
          : 'insertOne' in operation
            ? operation.insertOne.document
            : undefined;
  const id: unknown = filter?._id;
  return typeof id === 'string' ? id : id === undefined ? '\uffff' : JSON.stringify(id);
}

async function bulkUpsertOnce(
  collection: BulkWritable,
  operations: AnyBulkWriteOperation<Document>[],
  options: BulkUpsertOptions,
): Promise<void> {
  const retry = options.retry ?? DEFAULT_RETRY;
  let remaining = operations;
  for (let attempt = 1; remaining.length > 0; attempt++) {
    try {
      await collection.bulkWrite(remaining, {
        ordered: false,
        ...(options.writeConcern ? { writeConcern: options.writeConcern } : {}),
      });
      return;
    } catch (error) {
      const again = options.mark
        ? await notYetAbsorbed(collection, error, remaining, options.mark)
        : options.trustWriteErrorIndexes === false
          ? undefined
          : retriableOperations(error, remaining);
      if (!again || attempt >= retry.attempts) throw translateDriverError(error);
      remaining = again;
      if (remaining.length === 0) return;
      await sleep(backoff(retry, attempt));
    }
  }
}

/** The operations to send again, or undefined when the failure is not (only) per-operation and transient. */
export function retriableOperations(
  error: unknown,
  operations: readonly AnyBulkWriteOperation<Document>[],
  /** Only classify the errors (marked writes re-read instead of trusting indexes). */
  anyIndex = false,
): AnyBulkWriteOperation<Document>[] | undefined {
  if (!(error instanceof MongoBulkWriteError)) return undefined;
  if (error.err !== undefined) return undefined;
  const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
  if (writeErrors.length === 0) return undefined;
  const again: AnyBulkWriteOperation<Document>[] = [];
  for (const writeError of writeErrors) {
    const transient =
      writeError.code === DUPLICATE_KEY ||
      writeError.code === WRITE_CONFLICT ||
      TRANSIENT_LABELS.some((label) => error.hasErrorLabel(label));
    const operation = operations[writeError.index] ?? (anyIndex ? operations[0] : undefined);
    if (!transient || operation === undefined) return undefined;
    again.push(operation);
  }
  return again;
}

/**
 * For marked writes: when every per-operation error is transient (E11000 included, which for a guarded upsert
 * usually means "already applied"), one read of the operations' documents; keeps those not yet absorbed.
 */
async function notYetAbsorbed(
  collection: BulkWritable,
  error: unknown,
  operations: readonly AnyBulkWriteOperation<Document>[],
  mark: FlushMark,
): Promise<AnyBulkWriteOperation<Document>[] | undefined> {
  if (!collection.find || retriableOperations(error, operations, true) === undefined) return undefined;
  const ids = operations.map(operationId);
  try {
    const found = await collection.find({ _id: { $in: ids } }, { projection: markProjection(mark) }).toArray();
    const absorbed = new Set(found.filter((doc) => isAbsorbed(doc, mark)).map((doc) => String(doc._id)));
    return operations.filter((operation) => !absorbed.has(operationId(operation)));
  } catch (readError) {
    throw translateDriverError(readError);
  }
}

function backoff(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
