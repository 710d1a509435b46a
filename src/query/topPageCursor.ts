/** Opaque topPages cursors: the keyset position (hits, page) of an edge (see rankedCursor). */
import { compareRanked, decodeRankedCursor, encodeRankedCursor } from './rankedCursor';

export interface PageHits {
  readonly page: string;
  readonly hits: number;
}

export function encodeTopPageCursor(row: PageHits): string {
  return encodeRankedCursor('t', { hits: row.hits, key: row.page });
}

export function decodeTopPageCursor(cursor: string, field = 'after'): PageHits {
  const { hits, key } = decodeRankedCursor('t', 'topPages', cursor, field);
  return { hits, page: key };
}

/** The ranking order: more hits first, then page ascending. */
export function compareTopPages(a: PageHits, b: PageHits): number {
  return compareRanked({ hits: a.hits, key: a.page }, { hits: b.hits, key: b.page });
}
