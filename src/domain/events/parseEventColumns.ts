/**
 * The events of a columnar batch (HitColumns' events, properties and revenues dictionaries with their index
 * columns): each dictionary entry validated once, each row only for its indexes, with parseEvent's rules and
 * reasons. Refusals name the entry (`columns.properties[2][0].value`) or the row (`columns.revenueIndex[7]`).
 */
import type { Hit } from '../Hit';
import type { HitColumns } from '../HitColumns';
import { InputRejectedError } from '../InputRejectedError';
import { RejectReason } from '../RejectReason';
import type { HitEvent, Revenue } from './HitEvent';
import { checkRevenueTotal, parseEventName, parseProps, parseRevenue } from './parseEvent';
import type { EventRules } from './parseEvent';

/** Whether the batch carries any event column. */
export function hasEventColumns(columns: HitColumns): boolean {
  return (
    columns.events != null ||
    columns.eventIndex != null ||
    columns.properties != null ||
    columns.propertiesIndex != null ||
    columns.revenues != null ||
    columns.revenueIndex != null
  );
}

/** Sets each row's event on `hits` (parsed from the batch's other columns, row for row), in place. */
export function parseEventColumns(columns: HitColumns, hits: Hit[], rules: EventRules, prefix: string): void {
  const rows = hits.length;
  const names = (columns.events ?? []).map((name, i) => parseEventName(name, () => `${prefix}events[${i}]`));
  const propLists = (columns.properties ?? []).map((props, i) =>
    parseProps(props, rules, (suffix) => `${prefix}properties[${i}]${suffix}`),
  );
  const revenues: Revenue[] = (columns.revenues ?? []).map((revenue, i) =>
    parseRevenue(revenue, (name) => `${prefix}revenues[${i}].${name}`),
  );
  const eventIndex = indexColumn(columns.eventIndex, names.length, 'events', 'eventIndex', rows, prefix);
  const propsIndex = indexColumn(
    columns.propertiesIndex,
    propLists.length,
    'properties',
    'propertiesIndex',
    rows,
    prefix,
  );
  const revenueIndex = indexColumn(columns.revenueIndex, revenues.length, 'revenues', 'revenueIndex', rows, prefix);
  // Rows share their dictionary entry's event object when they share all three indexes (the common case).
  const shared = new Map<string, HitEvent>();
  for (let row = 0; row < rows; row++) {
    const e = eventIndex?.[row] ?? -1;
    const p = propsIndex?.[row] ?? -1;
    const r = revenueIndex?.[row] ?? -1;
    if (e < 0) {
      if (p >= 0 || r >= 0) {
        const column = r >= 0 ? 'revenueIndex' : 'propertiesIndex';
        throw new InputRejectedError(
          RejectReason.EVENT_MISSING,
          `${prefix}${column}[${row}] must be -1 for a pageview (eventIndex[${row}] is -1 or absent), got ${r >= 0 ? r : p}`,
          `${prefix}${column}[${row}]`,
        );
      }
      continue;
    }
    const key = `${e}/${p}/${r}`;
    let event = shared.get(key);
    if (event === undefined) {
      const revenue = r < 0 ? undefined : revenues[r];
      event = { name: names[e] as string, props: p < 0 ? [] : (propLists[p] as HitEvent['props']) };
      if (revenue !== undefined) event = { ...event, revenue };
      shared.set(key, event);
    }
    const hit = hits[row] as Hit;
    if (r >= 0) checkRevenueTotal(event, hit.count, () => `${prefix}revenues[${r}].amount`);
    hits[row] = { ...hit, event };
  }
}

function indexColumn(
  column: readonly number[] | null | undefined,
  size: number,
  dictionary: string,
  name: string,
  rows: number,
  prefix: string,
): readonly number[] | undefined {
  if (column == null) {
    if (size > 0 && dictionary === 'events' && rows > 0) {
      throw new InputRejectedError(
        RejectReason.COLUMNS_MISMATCH,
        `${prefix}eventIndex is required when events holds names, got ${size} names and no eventIndex`,
        `${prefix}eventIndex`,
      );
    }
    return undefined;
  }
  if (column.length !== rows) {
    throw new InputRejectedError(
      RejectReason.COLUMNS_MISMATCH,
      `${prefix}${name} must hold one value per hit (${rows}, the length of pageIndex), got ${column.length}`,
      `${prefix}${name}`,
    );
  }
  for (let row = 0; row < rows; row++) {
    const value = column[row] as number;
    if (Number.isInteger(value) && value >= -1 && value < size) continue;
    const expected =
      size === 0
        ? `must be -1 (${prefix}${dictionary} is empty)`
        : `must be -1 (none) or an index from 0 to ${size - 1}`;
    throw new InputRejectedError(
      RejectReason.INDEX_OUT_OF_RANGE,
      `${prefix}${name}[${row}] ${expected}, got ${value}`,
      `${prefix}${name}[${row}]`,
    );
  }
  return column;
}
