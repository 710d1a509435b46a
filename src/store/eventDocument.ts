/**
 * The shape both event collections share (issue 28, `events.daily` and `events.monthly`): one document per site,
 * page (or the site's total, page "") and UTC period, kept apart from `stats.*` so an event never makes the hot path
 * rewrite a larger document (FerretDB rewrites a whole document per update). Names, keys and values are field names
 * escaped by dimensionKey:
 * - `n.<event>`: how many times the event happened;
 * - `ev.<event>.<register>`: its converting visitors, a sketch of EVENT_VISITOR_PRECISION (`$bit … or` words);
 * - `evz.<event>`: the same sketch compacted once the period is over (compactEventSketches), one binary value in
 *   compactSketch's coded layout; a late event writes `ev.<event>` beside it, and reads OR both;
 * - `r.<event>.<currency>`: revenue in exact integer minor units;
 * - `p.<event>.<key>.<value>`: counts per property value;
 * - `d.<event>.<dimension>.<value>`: counts per dimension value (source, UTM, browser, OS, device, country).
 * Caps, with `(other)` as for dimensions, are EventCounting's.
 */
import type { Db } from 'mongodb';
import { VISITOR_PRECISION } from '../domain/visitors/VisitorPrecision';
import type { IndexDefinition } from './ensureIndexes';
import type { PackedSketch, StoredSketch } from './statsExtras';

export interface EventStatsDocument {
  _id: string;
  metadata: { date: Date; site: string; page: string };
  n?: Record<string, number>;
  ev?: Record<string, StoredSketch>;
  evz?: Record<string, PackedSketch>;
  r?: Record<string, Record<string, number>>;
  p?: Record<string, Record<string, Record<string, number>>>;
  d?: Record<string, Record<string, Record<string, number>>>;
}

/** 2048 registers, as page documents: SE 1.44 %, about 19 KB per event name when saturated. */
export const EVENT_VISITOR_PRECISION = VISITOR_PRECISION.pageDay;
export const EVENT_VISITOR_MASK = 2 ** EVENT_VISITOR_PRECISION - 1;

export const eventIndexes: readonly IndexDefinition[] = [
  { key: { 'metadata.site': 1, 'metadata.page': 1, 'metadata.date': 1 }, name: 'site_page_date' },
];

/**
 * The fields of one event name (escaped by dimensionKey) a read needs: `n.<event>`, `r.<event>` and for `ev` both
 * forms of its sketch, `ev.<event>` and `evz.<event>`.
 */
export function eventNamePaths(nameKey: string, fields: ReadonlyArray<'n' | 'ev' | 'r'>): string[] {
  return fields.flatMap((field) => (field === 'ev' ? [`ev.${nameKey}`, `evz.${nameKey}`] : [`${field}.${nameKey}`]));
}

/** One event's counters per value of one dimension: `d.<event>.<dimension>`. */
export function eventDimensionPath(nameKey: string, dimension: string): string {
  return `d.${nameKey}.${dimension}`;
}

/** Binary values (`evz`) come back as Uint8Array (Buffer), not as the driver's Binary. */
export function eventCollection(db: Db, name: string) {
  return db.collection<EventStatsDocument>(name, { promoteBuffers: true });
}
