/**
 * Builds the upsert of one counter document, in one of two targeting modes:
 * - `shardKey` (MongoDB, tally's FerretDB build): filter `{_id, metadata.site, metadata.page}`, so a sharded
 *   cluster routes the write to one shard; the upsert copies the equality fields in and `$setOnInsert` adds
 *   `metadata.date`.
 * - `idOnly` (stock FerretDB 1.x; see WritePolicy): filter exactly `{_id}`, the only filter its SQLite backend
 *   pushes down to SQL (any other filter is evaluated on every row: at 5,000 documents an update took 81 ms with
 *   the shard-key fields and 40 ms without, `node` probe in the issue notes); the upsert sets the whole `metadata`
 *   on insert, so the stored document is the same.
 * Visitor-sketch words go out as `$bit: {<path>: {or: <word>}}` beside `$inc`: a non-negative int32 the driver
 * sends as BSON int32, which MongoDB and FerretDB 1.24 both OR into a missing nested field of an upsert
 * (test/integration/visitorWrites.test.ts shows it on the embedded engine).
 */
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { markFilter, markSet } from './FlushMark';
import type { FlushMark } from './FlushMark';

export type Targeting = 'shardKey' | 'idOnly';

export interface CounterDocumentKey {
  readonly id: string;
  readonly site: string;
  readonly page: string;
  /** metadata.date: the UTC start of the document's period. */
  readonly date: Date;
}

export function counterUpsert(
  key: CounterDocumentKey,
  targeting: Targeting,
  change: {
    readonly inc?: Readonly<Record<string, number>>;
    /** The `$bit` operand: words to OR in, `{<path>: {or: <word>}}`. */
    readonly bits?: Readonly<Document> | undefined;
    readonly zeros?: Readonly<Document>;
    /** Exactly-once guard (FlushMark): skip a document that absorbed this content already, and record it. */
    readonly mark?: FlushMark | undefined;
  },
): AnyBulkWriteOperation<Document> {
  const onInsert: Document =
    targeting === 'shardKey'
      ? { 'metadata.date': key.date, ...change.zeros }
      : { metadata: { date: key.date, site: key.site, page: key.page }, ...change.zeros };
  // An event's visitor reaches a site document as `$bit` alone: no `$inc` then (an empty one is refused by MongoDB < 5).
  // Only a document with sketch words can lack increments, so the others skip the check (it is per document per flush).
  const withInc = change.inc !== undefined && (change.bits === undefined || hasKeys(change.inc));
  const update: Document = withInc ? { $setOnInsert: onInsert, $inc: change.inc } : { $setOnInsert: onInsert };
  if (change.bits) update.$bit = change.bits;
  const filter = counterFilter(key, targeting);
  if (change.mark) {
    Object.assign(filter, markFilter(change.mark));
    update.$set = markSet(change.mark);
  }
  return { updateOne: { filter, update, upsert: true } };
}

export function counterFilter(key: CounterDocumentKey, targeting: Targeting): Document {
  return targeting === 'shardKey'
    ? { _id: key.id, 'metadata.site': key.site, 'metadata.page': key.page }
    : { _id: key.id };
}

function hasKeys(object: Readonly<Record<string, number>>): boolean {
  for (const key in object) if (Object.hasOwn(object, key)) return true;
  return false;
}
