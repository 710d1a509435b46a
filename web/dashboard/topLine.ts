/**
 * The top-line figures of a view — visitors, hits, hits per visitor, each against the previous period — from the
 * whole-site series. A figure is shown only as what it is: visitors counted over a wider span than the hits say so;
 * a ratio or a change between numbers of different spans is "—" with the reason, never a number.
 */
import { MISSING, formatChange, formatCount, formatRatio } from './formatNumbers';
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
  readonly key: 'visitors' | 'hits' | 'hitsPerVisitor';
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
 * ratio stay as read, and a note says so). `readAt`: when the series was read.
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

  // Hits and visitors of one span, as read (live hits carry no visitors).
  const ratio =
    site.total !== null && site.visitors !== null && site.visitors > 0 && visitorsMatch
      ? site.total / site.visitors
      : null;
  const earlierRatio =
    comparison &&
    comparison.total !== null &&
    earlierSpan &&
    sameSpan(earlierVisitorsSpan, earlierSpan) &&
    comparison.visitors
      ? comparison.total / comparison.visitors
      : null;
  let ratioTitle = 'hits divided by visitors over the same span';
  if (site.total === null) ratioTitle = 'hits are not known for this range (retention)';
  else if (site.visitors === null) ratioTitle = 'visitors are not known for this range';
  else if (site.visitors === 0) ratioTitle = 'no visitors in this range';
  else if (!visitorsMatch) ratioTitle = 'not computed: hits and visitors are counted over different spans (see *)';
  const ratioFigure: Figure = {
    key: 'hitsPerVisitor',
    value: formatRatio(ratio),
    unit: 'hits per visitor',
    change:
      ratio === null
        ? NO_CHANGE(ratioTitle)
        : earlierRatio === null
          ? NO_CHANGE('no hits per visitor known for the previous period')
          : {
              ...formatChange(ratio / earlierRatio - 1),
              title: `against ${formatRatio(earlierRatio)} in the previous period, ${against}`,
            },
    marked: false,
    title: ratioTitle,
  };

  if (liveHits !== 0) {
    notes.push(`Hits include live updates; visitors and hits per visitor are as read at ${formatClock(readAt)}.`);
  }
  return { figures: [visitorsFigure, hitsFigure, ratioFigure], notes };
}
