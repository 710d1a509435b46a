/**
 * What one visitor's current visit on one site needs for the next hit (issue 29): kept in the database by
 * VisitSessionStore, keyed by a hash of (site, visitor), and expired after the visit timeout. Derived values only:
 * pages as tally stores them, the first hit's dimension values, a 32-bit hash per page seen.
 */
import type { DimensionValues } from '../dimensions/Dimension';
import type { HitEvent } from '../events/HitEvent';

export interface VisitState {
  /** The first hit's instant (epoch ms): the visit belongs to this hour, day and month. */
  readonly start: number;
  /** The latest hit's instant. */
  readonly last: number;
  readonly entry: string;
  /** The latest pageview's page: where the visit exits as long as no later pageview comes. */
  readonly exit: string;
  /** Pageviews (a hit with count n is n pageviews). */
  readonly views: number;
  /** Whether the visit is counted as a bounce now: one pageview and no interaction. */
  readonly bounced: boolean;
  /** The first hit's dimension values; absent when dimensions are not counted. */
  readonly dimensions?: DimensionValues | undefined;
  /** pageHash of each page viewed, at most MAX_SEEN_PAGES: a page's `v` counts a visit once. */
  readonly seen: readonly number[];
}

/** Beyond this many distinct pages in one visit, further pages count as seen (their `v` is not counted). */
export const MAX_SEEN_PAGES = 64;

/** A hit as visits see it: what the transitions need (a Hit is one, so a window's hits are not copied). */
export interface VisitHit {
  readonly site: string;
  readonly page: string;
  readonly at: number;
  readonly count: number;
  readonly dimensions?: DimensionValues | undefined;
  /** Present (or true): a custom event, interaction that extends the visit and undoes a bounce, never a pageview. */
  readonly event?: boolean | HitEvent | undefined;
}

/** FNV-1a over the page's UTF-16 units: a small, stable hash for the pages-seen list. */
export function pageHash(page: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < page.length; i++) {
    hash ^= page.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
