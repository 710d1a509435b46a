/**
 * Keyset cursors of a ranking by hits: the position (hits, key) of an edge as base64url JSON behind a one-letter tag
 * naming the ranking, so ties never skip or repeat and one ranking's cursor is refused by another.
 */
import { BadUserInputError } from '../errors/BadUserInputError';
import { describe } from '../errors/describe';

export interface RankedPosition {
  readonly hits: number;
  readonly key: string;
}

export function encodeRankedCursor(tag: string, position: RankedPosition): string {
  return Buffer.from(JSON.stringify([tag, position.hits, position.key]), 'utf8').toString('base64url');
}

/** `ranking` names the field whose cursors these are, for the error. */
export function decodeRankedCursor(tag: string, ranking: string, cursor: string, field: string): RankedPosition {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parts = undefined;
  }
  if (
    !Array.isArray(parts) ||
    parts.length !== 3 ||
    parts[0] !== tag ||
    !Number.isSafeInteger(parts[1]) ||
    (parts[1] as number) < 0 ||
    typeof parts[2] !== 'string'
  ) {
    throw new BadUserInputError(`${field} must be a cursor returned by ${ranking}, got ${describe(cursor)}`, field);
  }
  return { hits: parts[1] as number, key: parts[2] };
}

/** More hits first, then key ascending by UTF-16 code units (what MongoDB's binary order gives). */
export function compareRanked(a: RankedPosition, b: RankedPosition): number {
  return compareHits(a.hits, b.hits) || compareKeys(a.key, b.key);
}

/** More hits first; 0 on a tie. */
export function compareHits(a: number, b: number): number {
  return b - a;
}

/** Ascending by UTF-16 code units (what MongoDB's binary order gives). */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
