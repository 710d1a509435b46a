/**
 * `visitors.salts`: the salts of cookieless beacon visitors (issue 19), `{ _id: "<period>", salt: BinData,
 * createdAt }` with period `day:YYYY-MM-DD`, `month:YYYY-MM` or `never`. Each period's salt is created once by
 * whichever instance needs it first (insert-if-absent, then read back), so every instance hashes a visitor alike
 * within the period; once the period is over its salt is deleted, and the hashes made with it can no longer be
 * linked to an IP address and User-Agent by anyone, the database's owner included.
 */
import { randomBytes } from 'node:crypto';
import { Binary } from 'mongodb';
import type { Collection, Document } from 'mongodb';
import { bulkUpsertOptions } from './bulkUpsert';
import type { BulkUpsertOptions } from './bulkUpsert';
import type { Database } from './connectDatabase';
import { insertIfAbsent } from './insertIfAbsent';
import type { StringIdDocument } from './insertIfAbsent';
import { translateDriverError } from './translateDriverError';

export const VISITOR_SALTS_COLLECTION = 'visitors.salts';
export const VISITOR_SALT_BYTES = 32;

export class VisitorSaltStore {
  private readonly collection: Collection<StringIdDocument>;
  private readonly bulk: BulkUpsertOptions;

  constructor(database: Database, options: { readonly writeConcern?: string | number | undefined } = {}) {
    this.collection = database.db.collection<StringIdDocument>(VISITOR_SALTS_COLLECTION);
    this.bulk = bulkUpsertOptions(database.policy, options.writeConcern);
  }

  /** The salt of `period`, created now if it has none. */
  async salt(
    period: string,
    now: number,
    newSalt: () => Uint8Array = () => randomBytes(VISITOR_SALT_BYTES),
  ): Promise<Uint8Array> {
    const stored = await insertIfAbsent(
      this.collection,
      period,
      { salt: new Binary(newSalt()), createdAt: new Date(now) },
      this.bulk,
    );
    const salt: unknown = stored.salt;
    if (!(salt instanceof Binary) || salt.length() === 0) {
      throw new Error(`${VISITOR_SALTS_COLLECTION} ${JSON.stringify(period)} must hold a salt`);
    }
    return new Uint8Array(salt.value());
  }

  /** Deletes the salts of every period but `current`; returns how many went. */
  async deleteAllBut(current: string): Promise<number> {
    try {
      const result = await this.collection.deleteMany({ _id: { $ne: current } } as Document);
      return result.deletedCount;
    } catch (error) {
      throw translateDriverError(error);
    }
  }
}
