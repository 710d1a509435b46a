/**
 * Reads documents by a list of ids in one find: where the engine looks id lists up through its primary key while
 * other filters scan (WritePolicy.reads 'idList'). Bounded so one query's `$in` stays small.
 */
import type { Collection, Document, Filter } from 'mongodb';

export const ID_LIST_READ_LIMIT = 5_000;

export async function findByIdList<T extends Document>(
  collection: Collection<T>,
  ids: readonly string[],
  projection: Document,
): Promise<T[]> {
  const found: T[] = [];
  for (let start = 0; start < ids.length; start += ID_LIST_READ_LIMIT) {
    const chunk = ids.slice(start, start + ID_LIST_READ_LIMIT);
    const docs = await collection.find({ _id: { $in: chunk } } as Filter<T>, { projection }).toArray();
    for (const doc of docs) found.push(doc as T);
  }
  return found;
}
