/** Opaque breakdown cursors: the keyset position (hits, value) of an edge (see rankedCursor). */
import { compareRanked, decodeRankedCursor, encodeRankedCursor } from './rankedCursor';

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
  if (a.hits !== b.hits) return compareRanked({ hits: a.hits, key: '' }, { hits: b.hits, key: '' });
  return compareRanked({ hits: a.hits, key: a.value }, { hits: b.hits, key: b.value });
}
