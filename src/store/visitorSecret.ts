/**
 * `visitors.secret`: the database's key for visitor hashes (issue 19), `{ _id: "visitor-id", key: BinData,
 * createdAt }`. Created once, by whichever instance starts first (insert-if-absent, then read back), so every
 * instance over one database hashes a visitor id alike. Without it a stored register says nothing about whom it
 * counts; deleting it makes every later hash new (visitors then count again), so nothing ever deletes it.
 */
import { randomBytes } from 'node:crypto';
import { Binary } from 'mongodb';
import { bulkUpsertOptions } from './bulkUpsert';
import type { Database } from './connectDatabase';
import { insertIfAbsent } from './insertIfAbsent';
import type { StringIdDocument } from './insertIfAbsent';

export const VISITOR_SECRET_COLLECTION = 'visitors.secret';
export const VISITOR_SECRET_ID = 'visitor-id';
/** HMAC-SHA-256 keys of the hash's block size or less are used as they are; 32 random bytes is the usual key. */
export const VISITOR_SECRET_BYTES = 32;

/** The database's visitor key, created now when it has none. */
export async function ensureVisitorSecret(
  database: Database,
  options: {
    readonly now: number;
    readonly writeConcern?: string | number | undefined;
    /** A new key, used only if none exists (tests pass a fixed one). */
    readonly newKey?: (() => Uint8Array) | undefined;
  },
): Promise<Uint8Array> {
  const collection = database.db.collection<StringIdDocument>(VISITOR_SECRET_COLLECTION);
  const candidate = {
    key: new Binary(options.newKey?.() ?? randomBytes(VISITOR_SECRET_BYTES)),
    createdAt: new Date(options.now),
  };
  const stored = await insertIfAbsent(
    collection,
    VISITOR_SECRET_ID,
    candidate,
    bulkUpsertOptions(database.policy, options.writeConcern),
  );
  const key: unknown = stored.key;
  if (!(key instanceof Binary) || key.length() < 16) {
    throw new Error(
      `${VISITOR_SECRET_COLLECTION} ${JSON.stringify(VISITOR_SECRET_ID)} must hold a key of 16 bytes or more`,
    );
  }
  return new Uint8Array(key.value());
}
