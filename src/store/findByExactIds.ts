/**
 * Reads documents by exact `_id`, one find each (WritePolicy.reads 'exactIds'): on stock FerretDB 1.x the only
 * lookup its SQLite backend does through the primary key (any other filter decodes every row of the table). Used
 * for series that need few documents; past `EXACT_ID_READ_LIMIT` one table scan is cheaper than that many round
 * trips.
 */
import type { Collection, Document, Filter } from 'mongodb';

export const EXACT_ID_READ_LIMIT = 64;

export async function findByExactIds<T extends Document>(
  collection: Collection<T>,
  ids: readonly string[],
  projection: Document,
): Promise<T[]> {
  const found = await Promise.all(ids.map((id) => collection.findOne({ _id: id } as Filter<T>, { projection })));
  return found.filter((doc) => doc !== null) as unknown as T[];
}
