/**
 * Deletes documents, or unsets fields of them, by `_id`, in commands of WRITE_BY_IDS_STEP ids taken in `_id` order
 * (every writer takes documents in one global order), each a paced step on the collection's writer: a flush waits
 * behind one such command at most. By `_id` list where the engine looks lists up by index, one operation per exact
 * `_id` where it indexes nothing else (stock FerretDB, WritePolicy.reads 'exactIds').
 */
import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';
import { pacedStep } from './ttlOrSweep';
import type { SweepContext } from './ttlOrSweep';
import type { DocumentReads } from './WritePolicy';

/** Ids per command: on FerretDB about 0.4 ms a document, so a flush waits about 100 ms at most behind one. */
export const WRITE_BY_IDS_STEP = 250;

export type IdWrite =
  | { readonly kind: 'delete' }
  /** `$unset` of `fields` (a document without them is left unchanged and not counted). */
  | { readonly kind: 'unset'; readonly fields: readonly string[] };

/** Resolves with how many documents were deleted or changed; stops between commands when the context says so. */
export async function writeByIds(
  writer: Collection<Document>,
  ids: readonly string[],
  write: IdWrite,
  options: { readonly reads: DocumentReads; readonly context: SweepContext; readonly what: string },
): Promise<number> {
  const sorted = [...ids].sort();
  let done = 0;
  for (let start = 0; start < sorted.length && !options.context.stopped(); start += WRITE_BY_IDS_STEP) {
    const chunk = sorted.slice(start, start + WRITE_BY_IDS_STEP);
    const verb = write.kind === 'delete' ? 'deleting' : `unsetting ${write.fields.join(', ')} of`;
    done += await pacedStep(options.context, `${verb} ${chunk.length} ${options.what}`, () =>
      options.reads === 'exactIds' ? oneByOne(writer, chunk, write) : byList(writer, chunk, write),
    );
  }
  return done;
}

async function byList(writer: Collection<Document>, ids: readonly string[], write: IdWrite): Promise<number> {
  const filter: Document = { _id: { $in: ids } };
  if (write.kind === 'delete') return (await writer.deleteMany(filter)).deletedCount;
  const result = await writer.updateMany(filter, { $unset: unset(write.fields) });
  return result.modifiedCount;
}

async function oneByOne(writer: Collection<Document>, ids: readonly string[], write: IdWrite): Promise<number> {
  const operations = ids.map((id): AnyBulkWriteOperation<Document> => {
    const filter: Document = { _id: id };
    return write.kind === 'delete'
      ? { deleteOne: { filter } }
      : { updateOne: { filter, update: { $unset: unset(write.fields) } } };
  });
  const result = await writer.bulkWrite(operations, { ordered: false });
  return write.kind === 'delete' ? result.deletedCount : result.modifiedCount;
}

function unset(fields: readonly string[]): Document {
  return Object.fromEntries(fields.map((field) => [field, '']));
}
