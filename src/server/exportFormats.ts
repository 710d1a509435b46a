/**
 * The export file formats. A series: one row per bucket, columns (in this order) `start` and `end` (ISO-8601 with the
 * time zone's offset, end exclusive), `hits` (empty where retention dropped the bucket's counters), `site`, `page`
 * (empty for site totals), `visitors` (the bucket's distinct visitors; empty where the bucket is not a union of stored
 * sketch periods, see SeriesPoint.visitors), then the visit figures `visits`, `bounceRate`, `visitDuration`,
 * `viewsPerVisit` (issue 29; empty where visit counters do not answer the bucket, as in the API). A
 * breakdown: one row per value, `value`, `hits`, `visitors` (empty where per-value sketches are not kept), and the
 * four visit figures (site totals; empty elsewhere), ranked as
 * the breakdown query ranks, then one `(other)` row when the writers counted values under it, so the rows add up to
 * the span's hits. CSV is RFC 4180 with CRLF line ends and a UTF-8 byte order mark, so spreadsheets read non-ASCII
 * text right; a text cell that a spreadsheet would run as a formula (leading = + - @) gets a leading apostrophe.
 * Conversions: one row per goal, `goal`, `events`, `visitors`, `conversionRate`, `revenue`.
 * NDJSON is one JSON object per line (null where CSV leaves a cell empty).
 */
import type { BreakdownRow } from '../query/BreakdownQuery';
import type { Conversion } from '../query/events/EventQueries';
import type { Series } from '../query/Series';
import { VISIT_FIGURE_NAMES, visitFiguresOf } from '../query/visitCounts';
import type { NullableVisitFigures } from '../query/visitCounts';
import { formatWithOffset } from '../time/formatWithOffset';
import { UTC_ZONE } from '../time/zoneOffset';

export type ExportFormat = 'csv' | 'ndjson';

export const EXPORT_COLUMNS = ['start', 'end', 'hits', 'site', 'page', 'visitors', ...VISIT_FIGURE_NAMES] as const;
export const BREAKDOWN_COLUMNS = ['value', 'hits', 'visitors', ...VISIT_FIGURE_NAMES] as const;
export const CONVERSION_COLUMNS = ['goal', 'events', 'visitors', 'conversionRate', 'revenue'] as const;

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

export function exportHeader(format: ExportFormat, columns: readonly string[] = EXPORT_COLUMNS): string {
  return format === 'csv' ? `\uFEFF${columns.join(',')}\r\n` : '';
}

export function exportRows(format: ExportFormat, series: Series): string {
  const zone = series.request.timeZone ?? UTC_ZONE;
  const { site, page } = series.request;
  let out = '';
  series.points.forEach((point, i) => {
    const start = formatWithOffset(zone, point.t);
    const end = formatWithOffset(zone, series.points[i + 1]?.t ?? series.to);
    const visitors = point.visitors ?? null;
    const visits = visitFiguresOf(point.visits);
    out +=
      format === 'csv'
        ? `${start},${end},${point.hits ?? ''},${csvCell(site)},${csvCell(page)},${visitors ?? ''},${visitCells(visits)}\r\n`
        : `${JSON.stringify({ start, end, hits: point.hits, site, page, visitors, ...visits })}\n`;
  });
  return out;
}

export function breakdownRows(format: ExportFormat, rows: readonly BreakdownRow[]): string {
  let out = '';
  for (const { value, hits, visitors, visits: counts } of rows) {
    const visits = visitFiguresOf(counts);
    out +=
      format === 'csv'
        ? `${csvCell(value)},${hits},${visitors ?? ''},${visitCells(visits)}\r\n`
        : `${JSON.stringify({ value, hits, visitors, ...visits })}\n`;
  }
  return out;
}

/** Conversions (issue 28): one row per goal; revenue as `29.90 EUR; 5.00 USD` in CSV, a list in NDJSON. */
export function conversionRows(format: ExportFormat, rows: readonly Conversion[]): string {
  let out = '';
  for (const { goal, events, visitors, conversionRate, revenue } of rows) {
    out +=
      format === 'csv'
        ? `${csvCell(goal)},${events},${visitors ?? ''},${conversionRate ?? ''},${revenue.map((m) => `${m.amount} ${m.currency}`).join('; ')}\r\n`
        : `${JSON.stringify({ goal, events, visitors, conversionRate, revenue })}\n`;
  }
  return out;
}

function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function visitCells(figures: NullableVisitFigures): string {
  return VISIT_FIGURE_NAMES.map((column) => figures[column] ?? '').join(',');
}
