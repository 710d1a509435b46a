/**
 * Validates a columnar batch (HitColumns) into Hits, all or nothing, with the same rules and reasons as parseHit:
 * each dictionary entry is checked once, each row only for its indexes, instant and count.
 */
import { hasEventColumns, parseEventColumns } from './events/parseEventColumns';
import type { Hit, HitLimits } from './Hit';
import type { HitColumns } from './HitColumns';
import { InputRejectedError } from './InputRejectedError';
import { batchTooLarge, checkAt, checkCount } from './parseHit';
import { parsePage } from './parsePage';
import { parseSite } from './parseSite';
import { RejectReason } from './RejectReason';

export function parseHitColumns(
  columns: HitColumns,
  options: { readonly now: number; readonly limits: HitLimits; readonly path?: string },
): Hit[] {
  const prefix = options.path === undefined ? '' : `${options.path}.`;
  const { pageIndex, siteIndex, atMs, count } = columns;
  const rows = pageIndex.length;
  if (rows > options.limits.maxBatchSize) throw batchTooLarge(options.limits.maxBatchSize, rows, `${prefix}pageIndex`);
  const sites = columns.sites.map((site, i) => parseSite(site, () => `${prefix}sites[${i}]`));
  const pages = columns.pages.map((page, i) => parsePage(page, () => `${prefix}pages[${i}]`));
  for (const [name, dictionary] of [
    ['sites', sites],
    ['pages', pages],
  ] as const) {
    if (dictionary.length === 0 && rows > 0) {
      throw new InputRejectedError(
        RejectReason.COLUMNS_MISMATCH,
        `${prefix}${name} must not be empty when pageIndex holds hits, got none for ${rows} hits`,
        `${prefix}${name}`,
      );
    }
  }
  if (siteIndex == null && sites.length > 1) {
    throw new InputRejectedError(
      RejectReason.COLUMNS_MISMATCH,
      `${prefix}siteIndex is required when sites holds more than one site, got ${sites.length} sites and no siteIndex`,
      `${prefix}siteIndex`,
    );
  }
  for (const [name, column] of [
    ['siteIndex', siteIndex],
    ['atMs', atMs],
    ['count', count],
  ] as const) {
    if (column != null && column.length !== rows) {
      throw new InputRejectedError(
        RejectReason.COLUMNS_MISMATCH,
        `${prefix}${name} must hold one value per hit (${rows}, the length of pageIndex), got ${column.length}`,
        `${prefix}${name}`,
      );
    }
  }

  const hits = new Array<Hit>(rows);
  for (let row = 0; row < rows; row++) {
    const site =
      sites[index(siteIndex == null ? 0 : (siteIndex[row] as number), sites.length, prefix, 'siteIndex', row)];
    const page = pages[index(pageIndex[row] as number, pages.length, prefix, 'pageIndex', row)];
    const at = atMs == null ? options.now : (atMs[row] as number);
    if (!Number.isSafeInteger(at)) {
      throw new InputRejectedError(
        RejectReason.AT_NOT_INTEGER,
        `${prefix}atMs[${row}] must be a whole number of milliseconds since 1970-01-01T00:00:00Z, got ${at}`,
        `${prefix}atMs[${row}]`,
      );
    }
    const n = count == null ? 1 : (count[row] as number);
    // The row's field names are built only when the row is refused: this loop is the ingest hot path.
    checkAt(at, options.now, options.limits, () => `${prefix}atMs[${row}]`);
    checkCount(n, options.limits, () => `${prefix}count[${row}]`);
    hits[row] = { site: site as string, page: page as string, at, count: n };
  }
  if (hasEventColumns(columns)) {
    parseEventColumns(columns, hits, { allowEmailProps: options.limits.allowEmailProps === true }, prefix);
  }
  return hits;
}

function index(value: number, size: number, prefix: string, column: string, row: number): number {
  if (Number.isInteger(value) && value >= 0 && value < size) return value;
  throw new InputRejectedError(
    RejectReason.INDEX_OUT_OF_RANGE,
    `${prefix}${column}[${row}] must be an index from 0 to ${size - 1}, got ${value}`,
    `${prefix}${column}[${row}]`,
  );
}
