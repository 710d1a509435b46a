/** Opaque topPages cursors: the keyset position (hits, page) of an edge as base64url JSON, so ties never skip or repeat. */
import { BadUserInputError } from '../errors/BadUserInputError';
import { describe } from '../errors/describe';

export interface PageHits {
  readonly page: string;
  readonly hits: number;
}

export function encodeTopPageCursor(row: PageHits): string {
  return Buffer.from(JSON.stringify(['t', row.hits, row.page]), 'utf8').toString('base64url');
}

export function decodeTopPageCursor(cursor: string, field = 'after'): PageHits {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parts = undefined;
  }
  if (
    !Array.isArray(parts) ||
    parts.length !== 3 ||
    parts[0] !== 't' ||
    !Number.isSafeInteger(parts[1]) ||
    (parts[1] as number) < 0 ||
    typeof parts[2] !== 'string'
  ) {
    throw new BadUserInputError(`${field} must be a cursor returned by topPages, got ${describe(cursor)}`, field);
  }
  return { hits: parts[1] as number, page: parts[2] };
}

/** The ranking order: more hits first, then page ascending by UTF-16 code units (what MongoDB's binary order gives). */
export function compareTopPages(a: PageHits, b: PageHits): number {
  if (a.hits !== b.hits) return b.hits - a.hits;
  return a.page < b.page ? -1 : a.page > b.page ? 1 : 0;
}
