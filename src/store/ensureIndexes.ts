/**
 * Creates a collection's indexes one `createIndex` at a time: the one way every collection's indexes are made.
 * FerretDB 1.24 drops the connection (a server-side panic) when one `createIndexes` command re-creates two or
 * more indexes that already exist, which is every restart; one index per command is idempotent on FerretDB and
 * MongoDB alike, and start-up is the only caller (test/process/restart.test.ts restarts on existing data).
 */
import type { Collection, CreateIndexesOptions, Document, IndexSpecification } from 'mongodb';

export interface IndexDefinition {
  readonly key: Readonly<Record<string, 1 | -1>>;
  readonly name: string;
  readonly options?: CreateIndexesOptions;
}

export async function ensureIndexes<T extends Document>(
  collection: Collection<T>,
  indexes: readonly IndexDefinition[],
): Promise<void> {
  for (const index of indexes) {
    await collection.createIndex({ ...index.key } as IndexSpecification, { ...index.options, name: index.name });
  }
}
