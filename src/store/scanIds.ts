/**
 * Finds the `_id`s a background job must handle in one collection (retention, deletions), a bounded step at a time,
 * on a connection no flush waits on (Database.backgroundDb). Where range filters use indexes (MongoDB) the server
 * is given the job's filter; where every filter but an `_id` list decodes the whole table (FerretDB 1.x) one
 * filterless cursor reads only the ids, in table order, and `matches` picks them: one pass over the table per call,
 * never one per step (a filtered find per step would decode the table again each time).
 */
import type { Collection, Document } from 'mongodb';
import { pacedStep } from './ttlOrSweep';
import type { SweepContext } from './ttlOrSweep';
import type { DocumentReads } from './WritePolicy';

/** Ids read per step. */
export const SCAN_STEP = 1_000;

export interface IdScan {
  /** What is looked for, for step names ("daily documents of dropped days"). */
  readonly what: string;
  /** The server-side filter where the engine's range filters use indexes. */
  readonly filter: Document;
  /** The same condition on an id alone: applied to every id read. */
  readonly matches: (id: string) => boolean;
}

/** The matching ids in `_id` order (the order every writer takes documents in); empty when stopped. */
export async function scanIds(
  finder: Collection<Document>,
  scan: IdScan,
  options: { readonly reads: DocumentReads; readonly context: SweepContext },
): Promise<string[]> {
  const { context } = options;
  const filter = options.reads === 'shardKeyRanges' ? scan.filter : {};
  const cursor = finder.find(filter, { projection: { _id: 1 }, batchSize: SCAN_STEP });
  const ids: string[] = [];
  try {
    for (let more = true; more && !context.stopped();) {
      more = await pacedStep(context, `reading up to ${SCAN_STEP} ids looking for ${scan.what}`, async () => {
        for (let read = 0; read < SCAN_STEP; read++) {
          const document = await cursor.next();
          if (document === null) return false;
          const id = document._id as unknown;
          if (typeof id === 'string' && scan.matches(id)) ids.push(id);
        }
        return true;
      });
    }
  } finally {
    await cursor.close();
  }
  if (context.stopped()) return [];
  return ids.sort();
}
