/**
 * Turns coalesced counter updates (the ingest path's own CounterBatch) into the documents an upsert into an
 * empty collection would create, so query data sets load with insertMany instead of thousands of upserts.
 * Ingest speed is measured separately (section 2); this only makes loading fast and exact.
 */
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { CounterBatch } from '../../src/store/CounterBatch';
import { setPath } from './setPath';
import type { BenchHit } from '../shared/traffic';

export interface CounterDocuments {
  readonly daily: Document[];
  readonly monthly: Document[];
}

export function counterDocuments(hits: readonly BenchHit[]): CounterDocuments {
  const batch = new CounterBatch();
  for (const hit of hits) batch.add({ ...hit, count: 1 });
  return {
    daily: batch.daily.toOperations('shardKey').map(upsertedDocument),
    monthly: batch.monthly.toOperations('shardKey').map(upsertedDocument),
  };
}

/**
 * The document an upsert (filter + $setOnInsert + $inc + $bit) creates when nothing matches: `$bit … or` into a
 * missing field stores the operand itself.
 */
export function upsertedDocument(operation: AnyBulkWriteOperation<Document>): Document {
  if (!('updateOne' in operation)) throw new Error('expected an updateOne upsert');
  const { filter, update } = operation.updateOne as { filter: Document; update: Document };
  const doc: Document = {};
  for (const [path, value] of Object.entries(filter)) setPath(doc, path, value);
  for (const [path, value] of Object.entries((update.$setOnInsert ?? {}) as Document)) setPath(doc, path, value);
  for (const [path, value] of Object.entries((update.$inc ?? {}) as Document)) setPath(doc, path, value);
  for (const [path, value] of Object.entries((update.$bit ?? {}) as Record<string, { or: number }>))
    setPath(doc, path, value.or);
  return doc;
}
