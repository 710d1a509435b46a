/**
 * The export file formats, one row per bucket. Columns (in this order): `start` and `end` (ISO-8601 with the time
 * zone's offset, end exclusive), `hits`, `site`, `page` (empty for site totals). CSV is RFC 4180 with CRLF line
 * ends and a UTF-8 byte order mark, so spreadsheets read non-ASCII paths right; a text cell that a spreadsheet
 * would run as a formula (leading = + - @) gets a leading apostrophe. NDJSON is one JSON object per line.
 */
import type { Series } from '../query/Series';
import { formatWithOffset } from '../time/formatWithOffset';
import { UTC_ZONE } from '../time/zoneOffset';

export type ExportFormat = 'csv' | 'ndjson';

export const EXPORT_COLUMNS = ['start', 'end', 'hits', 'site', 'page'] as const;

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
};

export function exportHeader(format: ExportFormat): string {
  return format === 'csv' ? `\uFEFF${EXPORT_COLUMNS.join(',')}\r\n` : '';
}

export function exportRows(format: ExportFormat, series: Series): string {
  const zone = series.request.timeZone ?? UTC_ZONE;
  const { site, page } = series.request;
  let out = '';
  series.points.forEach((point, i) => {
    const start = formatWithOffset(zone, point.t);
    const end = formatWithOffset(zone, series.points[i + 1]?.t ?? series.to);
    out +=
      format === 'csv'
        ? `${start},${end},${point.hits},${csvCell(site)},${csvCell(page)}\r\n`
        : `${JSON.stringify({ start, end, hits: point.hits, site, page })}\n`;
  });
  return out;
}

function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
