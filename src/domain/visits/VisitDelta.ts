/**
 * One change to the visit counters a hit causes (issue 29). Counters live in the documents of the visit's start
 * period (its hour, day and month), on the site and on a page:
 * - `v` visits: on the site, visits started; on a page, visits that viewed it (once per visit);
 * - `e` entries: visits that entered on the page (page documents only; on the site every visit enters);
 * - `x` exits: visits whose latest pageview is on the page (page documents only); moved when a later pageview comes;
 * - `b` bounces, `s` visit seconds, `p` pageviews of visits: on the site for every visit, on a page for the visits
 *   that entered there (so a page's bounce rate and visit duration are those of the visits entered there).
 * Dimension values (site documents only) count `v`, `b`, `s` and `p` under the visit's first hit's values.
 */
import type { DimensionValues } from '../dimensions/Dimension';

export type VisitField = 'v' | 'e' | 'x' | 'b' | 's' | 'p';

export const VISIT_FIELDS: readonly VisitField[] = ['v', 'e', 'x', 'b', 's', 'p'];

export interface VisitDelta {
  /** The page's counters, or undefined for the site's (and its dimension values'). */
  readonly page: string | undefined;
  /** The visit's start: the period whose documents hold the counter. */
  readonly start: number;
  readonly field: VisitField;
  readonly amount: number;
  /** Site changes: the visit's dimension values (its first hit's), which count them too. */
  readonly dimensions?: DimensionValues | undefined;
}
