/**
 * The loop both compactions share (compactPastPeriods, compactEventSketches): documents read on the caller's finder
 * (a connection no flush waits on) and rewritten through the collection's writer, in paced steps of COMPACTION_STEP
 * documents in `_id` order, so a flush waits behind one step's update command at most.
 */
import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';
import { pacedStep } from './ttlOrSweep';
import type { SweepContext } from './ttlOrSweep';

/** Documents read and rewritten per step. */
export const COMPACTION_STEP = 20;

export interface StepRewrite<T> {
  readonly projection: Document;
  /** The guarded rewrite of one document, or undefined when it has nothing to fold. */
  readonly rewrite: (doc: T) => AnyBulkWriteOperation<Document> | undefined;
  /** What a step does, for the sweep's watch: "compacting the sketches of 20 daily documents". */
  readonly describe: (documents: number) => string;
}

/** Rewrites the documents `ids` (those still there); resolves with how many were modified. */
export async function rewriteInSteps<T extends { readonly _id: string }>(
  finder: Collection<Document>,
  writer: Collection<Document>,
  ids: readonly string[],
  how: StepRewrite<T>,
  context?: SweepContext,
): Promise<number> {
  const sorted = [...ids].sort();
  let modified = 0;
  for (let start = 0; start < sorted.length; start += COMPACTION_STEP) {
    if (context?.stopped() === true) break;
    const chunk = sorted.slice(start, start + COMPACTION_STEP);
    const step = async (): Promise<number> => {
      const docs = (await finder
        .find({ _id: { $in: chunk } } as Document, { projection: how.projection, promoteBuffers: true })
        .toArray()) as unknown as T[];
      const operations = docs
        .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
        .map((doc) => how.rewrite(doc))
        .filter((op): op is AnyBulkWriteOperation<Document> => op !== undefined);
      if (operations.length === 0) return 0;
      const result = await writer.bulkWrite(operations, { ordered: false });
      return result.modifiedCount;
    };
    modified += context ? await pacedStep(context, how.describe(chunk.length), step) : await step();
  }
  return modified;
}
