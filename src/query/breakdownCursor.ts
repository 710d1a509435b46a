/** Opaque breakdown cursors: the keyset position (hits, value) of an edge as base64url JSON, so ties never skip or repeat. */
import { BadUserInputError } from '../errors/BadUserInputError';
import { describe } from '../errors/describe';

export interface ValueHits {
  readonly value: string;
  readonly hits: number;
}

export function encodeBreakdownCursor(row: ValueHits): string {
  return Buffer.from(JSON.stringify(['b', row.hits, row.value]), 'utf8').toString('base64url');
}

export function decodeBreakdownCursor(cursor: string, field = 'after'): ValueHits {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parts = undefined;
  }
  if (
    !Array.isArray(parts) ||
    parts.length !== 3 ||
    parts[0] !== 'b' ||
    !Number.isSafeInteger(parts[1]) ||
    (parts[1] as number) < 0 ||
    typeof parts[2] !== 'string'
  ) {
    throw new BadUserInputError(`${field} must be a cursor returned by breakdown, got ${describe(cursor)}`, field);
  }
  return { hits: parts[1] as number, value: parts[2] };
}

/** The breakdown order: more hits first, then value ascending by UTF-16 code units. */
export function compareBreakdownRows(a: ValueHits, b: ValueHits): number {
  if (a.hits !== b.hits) return b.hits - a.hits;
  return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
}
