/**
 * Visit figures (issue 29) from the stored visit counters (src/store/visitCounters.ts). Counters are exact and
 * additive, so a bucket or a range is the sum of its hours and days, in any time zone whose boundaries fall on whole
 * hours. A bucket that needs minutes (MINUTE buckets, boundaries inside an hour) sums the minute documents' counters
 * where the request may read them (`minutesFrom`, the live series), and has none (null) elsewhere, never a wrong one.
 * On a site, every visit enters: its bounce rate, duration and views per visit are over all its visits. On a page
 * they are over the visits that entered there, as peers define them; its `visits` are the visits that viewed it.
 */
import type { StoredVisitCounts } from '../store/visitCounters';
import { HOUR_MS, MINUTE_MS } from '../time/buckets';
import { storedCount } from './storedCount';
import type { CounterPiece } from './counterPieces';
import type { DocumentLookup } from './DocumentLookup';

export interface VisitCounts {
  /** Site: visits started; page: visits that viewed it. */
  readonly visits: number;
  /** Visits the rates are over: on a site its visits, on a page those that entered there. */
  readonly entered: number;
  readonly bounces: number;
  readonly seconds: number;
  readonly pageviews: number;
  /** Page: visits that left from it (0 on a site). */
  readonly exits: number;
}

export const NO_VISITS: VisitCounts = { visits: 0, entered: 0, bounces: 0, seconds: 0, pageviews: 0, exits: 0 };

/** The figures a client reads. */
export interface VisitFigures {
  readonly visits: number;
  /** Bounces over visits, 0 to 1; null with no visits. */
  readonly bounceRate: number | null;
  /** Mean visit duration in seconds; null with no visits. */
  readonly visitDuration: number | null;
  readonly viewsPerVisit: number | null;
}

/** The figures' names, in the order the API documents them and export files put their columns. */
export const VISIT_FIGURE_NAMES = [
  'visits',
  'bounceRate',
  'visitDuration',
  'viewsPerVisit',
] as const satisfies ReadonlyArray<keyof VisitFigures>;

/** The figures where visit counters do not answer a bucket, or were not read. */
export type NullableVisitFigures = { readonly [K in keyof VisitFigures]: VisitFigures[K] | null };

const NO_VISIT_FIGURES: NullableVisitFigures = {
  visits: null,
  bounceRate: null,
  visitDuration: null,
  viewsPerVisit: null,
};

/** Figures from counters; every one null where the counters do not answer (null) or were not read (undefined). */
export function visitFiguresOf(counts: VisitCounts | null | undefined): NullableVisitFigures {
  return counts === null || counts === undefined ? NO_VISIT_FIGURES : visitFigures(counts);
}

export function visitFigures(counts: VisitCounts): VisitFigures {
  const { visits, entered } = counts;
  if (entered <= 0) return { visits, bounceRate: null, visitDuration: null, viewsPerVisit: null };
  return {
    visits,
    bounceRate: clamp(counts.bounces / entered),
    visitDuration: Math.max(0, counts.seconds) / entered,
    viewsPerVisit: Math.max(0, counts.pageviews) / entered,
  };
}

/** Adds one period's stored counters; `site`: the document is a site's (every visit enters). */
export function addStoredVisits(sum: VisitCounts, stored: StoredVisitCounts | undefined, site: boolean): VisitCounts {
  if (stored === undefined) return sum;
  const visits = storedCount(stored.v);
  return {
    visits: sum.visits + visits,
    entered: sum.entered + (site ? visits : storedCount(stored.e)),
    bounces: sum.bounces + storedCount(stored.b),
    seconds: sum.seconds + storedCount(stored.s),
    pageviews: sum.pageviews + storedCount(stored.p),
    exits: sum.exits + storedCount(stored.x),
  };
}

export function addVisitCounts(a: VisitCounts, b: VisitCounts): VisitCounts {
  return {
    visits: a.visits + b.visits,
    entered: a.entered + b.entered,
    bounces: a.bounces + b.bounces,
    seconds: a.seconds + b.seconds,
    pageviews: a.pageviews + b.pageviews,
    exits: a.exits + b.exits,
  };
}

/**
 * A bucket's visit counters from its counter pieces; null when one of them is a minute before `minutesFrom` (or any
 * minute, without it): minute counters live in minute documents, which only the seconds retention keeps.
 */
export function sumVisitPieces(
  lookup: DocumentLookup,
  pieces: readonly CounterPiece[],
  site: boolean,
  minutesFrom?: number,
): VisitCounts | null {
  let sum = NO_VISITS;
  for (const piece of pieces) {
    switch (piece.source) {
      case 'monthly':
        sum = addStoredVisits(sum, lookup.monthly(piece.doc)?.vd?.[piece.dayOfMonth], site);
        break;
      case 'hourly':
        sum = addStoredVisits(sum, lookup.daily(piece.doc)?.vh?.[piece.hour], site);
        break;
      case 'minute': {
        const start = minutePieceStart(piece);
        if (minutesFrom === undefined || start < minutesFrom) return null;
        sum = addStoredVisits(sum, lookup.seconds?.(start)?.vm, site);
        break;
      }
    }
  }
  return sum;
}

/** Whether visit counters answer a bucket made of these pieces (minutes from `minutesFrom` on, when given). */
export function visitsAnswer(pieces: readonly CounterPiece[], minutesFrom?: number): boolean {
  return pieces.every(
    (piece) => piece.source !== 'minute' || (minutesFrom !== undefined && minutePieceStart(piece) >= minutesFrom),
  );
}

/** The start of the UTC minute a `minute` piece counts: its minute document's metadata.date. */
export function minutePieceStart(piece: Extract<CounterPiece, { source: 'minute' }>): number {
  return piece.doc + piece.hour * HOUR_MS + piece.minute * MINUTE_MS;
}

function clamp(rate: number): number {
  return Math.min(1, Math.max(0, rate));
}
