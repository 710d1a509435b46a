/** Opaque breakdown cursors: the keyset position (hits, value) of an edge (see rankedCursor). */
import { compareHits, compareKeys, decodeRankedCursor, encodeRankedCursor } from './rankedCursor';

export interface ValueHits {
  readonly value: string;
  readonly hits: number;
}

export function encodeBreakdownCursor(row: ValueHits): string {
  return encodeRankedCursor('b', { hits: row.hits, key: row.value });
}

export function decodeBreakdownCursor(cursor: string, field = 'after'): ValueHits {
  const { hits, key } = decodeRankedCursor('b', 'breakdown', cursor, field);
  return { hits, value: key };
}

/** The breakdown order: more hits first, then value ascending (a row's value is read only to break a tie). */
export function compareBreakdownRows(a: ValueHits, b: ValueHits): number {
  return compareHits(a.hits, b.hits) || compareKeys(a.value, b.value);
}
