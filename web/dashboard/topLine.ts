/**
 * The top-line figures of a view — visitors, visits, hits, views per visit, bounce rate and visit duration, each
 * against the previous period — from the whole-site series. A figure is shown only as what it is: visitors counted
 * over a wider span than the hits say so; a change between numbers of different spans, or any unknown number, is
 * "—" with the reason, never a number.
 */
import {
  MISSING,
  formatChange,
  formatCount,
  formatDuration,
  formatPercent,
  formatPointsChange,
  formatRatio,
} from './formatNumbers';
import type { Direction } from './formatNumbers';
import { formatClock, formatSpan } from './formatSpan';
import type { SiteResult } from './operations';

export interface FigureChange {
  readonly text: string;
  readonly direction: Direction | 'none';
  /** What it compares with, or why there is no change. */
  readonly title: string;
}

export interface Figure {
  readonly key: 'visitors' | 'hits' | VisitKey;
  readonly value: string;
  readonly unit: string;
  readonly change: FigureChange;
  /** A footnote mark when a note below qualifies the number. */
  readonly marked: boolean;
  readonly title: string;
}

export interface TopLine {
  readonly figures: readonly Figure[];
  /** Small print under the figures: the spans counted, and anything that qualifies a figure. */
  readonly notes: readonly string[];
}

interface Span {
  readonly from: number;
  readonly to: number;
}

const NO_CHANGE = (title: string): FigureChange => ({ text: MISSING, direction: 'none', title });

function span(from: string | null, to: string | null): Span | undefined {
  return from === null || to === null ? undefined : { from: Date.parse(from), to: Date.parse(to) };
}

const sameSpan = (a: Span | undefined, b: Span): boolean => a !== undefined && a.from === b.from && a.to === b.to;
const length = (s: Span): number => s.to - s.from;

function change(current: number, earlier: number | null, against: string): FigureChange {
  if (earlier === null) return NO_CHANGE('no earlier number to compare with');
  if (earlier === 0) return NO_CHANGE(`nothing in the previous period (${against}) to compare with`);
  const { text, direction } = formatChange((current - earlier) / earlier);
  return { text, direction, title: `against ${formatCount(earlier)} in the previous period, ${against}` };
}

/**
 * `liveHits`: hits added by live updates since the series was read (the hits figure follows them; visitors and the
 * visit figures stay as read, and a note says so). `readAt`: when the series was read.
 */
export function topLine(site: SiteResult, liveHits: number, readAt: number): TopLine {
  const hitsSpan = { from: Date.parse(site.from), to: Date.parse(site.to) };
  const comparison = site.comparison;
  const earlierSpan = comparison ? { from: Date.parse(comparison.from), to: Date.parse(comparison.to) } : undefined;
  const against = earlierSpan ? formatSpan(earlierSpan.from, earlierSpan.to) : '';
  const notes = [
    `${formatSpan(hitsSpan.from, hitsSpan.to)}${earlierSpan ? `, against the previous period ${against}` : ''}.`,
  ];

  // Null: the span reaches detail retention dropped; shown as unknown, never as a zero.
  const hits = site.total === null ? null : site.total + liveHits;
  const hitsFigure: Figure = {
    key: 'hits',
    value: formatCount(hits),
    unit: hits === 1 ? 'hit' : 'hits',
    change:
      hits === null
        ? NO_CHANGE('not known: the range reaches detail the server no longer keeps (retention)')
        : comparison
          ? change(hits, comparison.total, against)
          : NO_CHANGE('no previous period was read'),
    marked: false,
    title:
      hits === null
        ? 'not known: the range reaches detail the server no longer keeps (retention)'
        : `hits over ${formatSpan(hitsSpan.from, hitsSpan.to)}`,
  };

  const visitorsSpan = span(site.visitorsFrom, site.visitorsTo);
  const visitorsMatch = sameSpan(visitorsSpan, hitsSpan);
  const visitorsNote =
    site.visitors !== null && visitorsSpan && !visitorsMatch
      ? `* Visitors are counted over ${formatSpan(visitorsSpan.from, visitorsSpan.to)}: the stored visitor sketches of that time cover whole UTC days, not the chart's buckets.`
      : undefined;
  if (visitorsNote) notes.push(visitorsNote);
  const earlierVisitorsSpan = comparison ? span(comparison.visitorsFrom, comparison.visitorsTo) : undefined;
  let visitorsChange: FigureChange;
  if (site.visitors === null) visitorsChange = NO_CHANGE('visitors are not known for this range');
  else if (!comparison || comparison.visitors === null) visitorsChange = NO_CHANGE('no visitors known before');
  else if (!visitorsSpan || !earlierVisitorsSpan || length(visitorsSpan) !== length(earlierVisitorsSpan)) {
    visitorsChange = NO_CHANGE(
      `not compared: the previous period's visitors are counted over ${earlierVisitorsSpan ? formatSpan(earlierVisitorsSpan.from, earlierVisitorsSpan.to) : 'an unknown span'}, a span of another length`,
    );
  } else {
    visitorsChange = change(
      site.visitors,
      comparison.visitors,
      formatSpan(earlierVisitorsSpan.from, earlierVisitorsSpan.to),
    );
  }
  const visitorsFigure: Figure = {
    key: 'visitors',
    value: formatCount(site.visitors),
    unit: site.visitors === 1 ? 'visitor' : 'visitors',
    change: visitorsChange,
    marked: visitorsNote !== undefined,
    title:
      site.visitors === null
        ? 'visitors are not known for this range'
        : `distinct visitors over ${visitorsSpan ? formatSpan(visitorsSpan.from, visitorsSpan.to) : 'the range'} (estimated from sketches)`,
  };

  const visitFigures = visitFiguresOf(site, comparison, earlierSpan ? against : undefined);
  if (liveHits !== 0) {
    notes.push(`Hits include live updates; visitors and the visit figures are as read at ${formatClock(readAt)}.`);
  }
  return {
    figures: [visitorsFigure, visitFigures.visits, hitsFigure, ...visitFigures.rest],
    notes,
  };
}

type VisitKey = 'visits' | 'viewsPerVisit' | 'bounceRate' | 'visitDuration';

/** How each visit figure is written, what it is, and how its change is reckoned. */
const VISIT_FIGURES: Record<
  VisitKey,
  { format: (value: number) => string; unit: (value: number) => string; meaning: string; points?: true }
> = {
  visits: {
    format: formatCount,
    unit: (value) => (value === 1 ? 'visit' : 'visits'),
    meaning: "visits started in the range: a visitor's hits with no gap of the visit timeout (VISIT_TIMEOUT_MINUTES)",
  },
  viewsPerVisit: {
    format: formatRatio,
    unit: () => 'views per visit',
    meaning: 'pageviews per visit, over the visits started in the range',
  },
  bounceRate: {
    format: formatPercent,
    unit: () => 'bounce rate',
    meaning: 'visits of one pageview and no event, of the visits started in the range',
    points: true,
  },
  visitDuration: {
    format: formatDuration,
    unit: () => 'visit duration',
    meaning: "mean time from a visit's first hit to its last, over the visits started in the range",
  },
};

const VISITS_UNKNOWN =
  'not known: a minute chart counts visits only inside the second-level retention, and retention may have dropped them';

/**
 * Visits, views per visit, bounce rate and visit duration, each against the previous period. Visit counters are
 * exact and cover the hits' own span, so unlike visitors they need no span check; a null is unknown (a minute
 * chart, retention), and a rate over no visits is "—".
 */
function visitFiguresOf(
  site: SiteResult,
  comparison: SiteResult['comparison'],
  against: string | undefined,
): { visits: Figure; rest: Figure[] } {
  const figure = (key: VisitKey): Figure => {
    const how = VISIT_FIGURES[key];
    const value = site[key];
    const earlier = comparison ? comparison[key] : null;
    let title = how.meaning;
    if (site.visits === null) title = VISITS_UNKNOWN;
    else if (value === null) title = 'no visits in this range';
    let figureChange: FigureChange;
    if (value === null) figureChange = NO_CHANGE(title);
    else if (against === undefined) figureChange = NO_CHANGE('no previous period was read');
    else if (earlier === null) figureChange = NO_CHANGE('no visits known for the previous period');
    else if (how.points) {
      figureChange = {
        ...formatPointsChange(value, earlier),
        title: `against ${how.format(earlier)} in the previous period, ${against}`,
      };
    } else if (earlier === 0) {
      figureChange = NO_CHANGE(`${how.format(0)} in the previous period (${against}): nothing to compare with`);
    } else {
      figureChange = {
        ...formatChange(value / earlier - 1),
        title: `against ${how.format(earlier)} in the previous period, ${against}`,
      };
    }
    return {
      key,
      value: value === null ? MISSING : how.format(value),
      unit: how.unit(value ?? 0),
      change: figureChange,
      marked: false,
      title,
    };
  };
  return { visits: figure('visits'), rest: [figure('viewsPerVisit'), figure('bounceRate'), figure('visitDuration')] };
}
