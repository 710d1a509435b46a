/**
 * `stats.daily`: one document per site, page and UTC day, in the seed's shape:
 * `{ metadata: {date, site, page}, daily, hourly: {"0".."23"}, minute: {"0".."23": {"0".."59"}} }`.
 * Minutes are nested by hour (the seed's intra-document hierarchy) so a minute chart can project one hour.
 */
import type { AnyBulkWriteOperation, Collection, Db, Document } from 'mongodb';
import { DAY_MS, dayKey, startOfDay } from '../time/buckets';
import type { HitParts } from '../time/hitParts';
import { documentId } from './documentId';
import type { PendingDocument, PendingUpdates } from './PendingUpdates';
import { counterUpsert } from './counterUpsert';
import type { Targeting } from './counterUpsert';
import type { SeriesDocumentRange } from './SeriesDocumentRange';
import { extraProjection } from './statsExtras';
import type { ExtraFields, StatsExtras } from './statsExtras';

export const DAILY_COLLECTION = 'stats.daily';

export interface DailyStatsDocument {
  _id: string;
  metadata: { date: Date; site: string; page: string };
  daily?: number;
  hourly?: Record<string, number>;
  minute?: Record<string, Record<string, number>>;
  /** Site-day documents written before `stats.rollups` only: hits per page key (PageRollup). */
  p?: Record<string, number>;
}

/** What a read needs from daily documents: the hourly counters, or the minutes of some hours. */
export type DailyFields =
  { readonly kind: 'hourly' } | { readonly kind: 'minute'; readonly hours: ReadonlySet<number> };

export const dailyIndexes = [
  { key: { 'metadata.site': 1, 'metadata.page': 1, 'metadata.date': 1 }, name: 'site_page_date' },
] as const;

export function dailyCollection(db: Db): Collection<DailyStatsDocument> {
  // Compacted sketches and counters (vz, dvz, dz) are binaries: read them as Buffers, the bytes their readers take.
  return db.collection<DailyStatsDocument>(DAILY_COLLECTION, { promoteBuffers: true });
}

export function dailyDocumentId(site: string, page: string, dayMs: number): string {
  return documentId(dayKey(dayMs), site, page);
}

/** The ids of every daily document a range covers. */
export function dailyDocumentIds(range: SeriesDocumentRange): string[] {
  const ids: string[] = [];
  for (let day = range.first; day <= range.last; day += DAY_MS) ids.push(dailyDocumentId(range.site, range.page, day));
  return ids;
}

const HOURLY_PATHS = Array.from({ length: 24 }, (_, h) => `hourly.${h}`);
const MINUTE_PATHS = Array.from({ length: 24 }, (_, h) => Array.from({ length: 60 }, (_, m) => `minute.${h}.${m}`));

export function addHitToDaily(
  pending: PendingUpdates,
  site: string,
  page: string,
  count: number,
  parts: HitParts,
): PendingDocument {
  const document = pending.document(site, page, parts.day, dailyDocumentId);
  document.add('daily', count);
  document.add(HOURLY_PATHS[parts.hourOfDay] as string, count);
  document.add((MINUTE_PATHS[parts.hourOfDay] as string[])[parts.minuteOfHour] as string, count);
  return document;
}

/** A zero-filled day: created if missing, never touching a document that exists. */
export function preallocatedDaily(
  site: string,
  page: string,
  dayMs: number,
  targeting: Targeting,
): AnyBulkWriteOperation<Document> {
  const day = startOfDay(dayMs);
  const hourly: Record<string, number> = {};
  const minute: Record<string, Record<string, number>> = {};
  for (let h = 0; h < 24; h++) {
    hourly[h] = 0;
    const minutes: Record<string, number> = {};
    for (let m = 0; m < 60; m++) minutes[m] = 0;
    minute[h] = minutes;
  }
  const key = { id: dailyDocumentId(site, page, day), site, page, date: new Date(day) };
  return counterUpsert(key, targeting, { zeros: { daily: 0, hourly, minute } });
}

export function dailyProjection(fields: DailyFields, extra?: ExtraFields): Document {
  const projection: Document = { _id: 0, metadata: 1, ...extraProjection(extra) };
  if (fields.kind === 'hourly') projection.hourly = 1;
  else for (const hour of fields.hours) projection[`minute.${hour}`] = 1;
  return projection;
}

/** One find for many series: an `$or` of (site, page, date range) clauses, each served by the index. */
export async function findDaily(
  collection: Collection<DailyStatsDocument>,
  ranges: readonly SeriesDocumentRange[],
  fields: DailyFields,
  extra?: ExtraFields,
): Promise<Array<DailyStatsDocument & StatsExtras>> {
  if (ranges.length === 0) return [];
  return collection
    .find({ $or: ranges.map(rangeClause) }, { projection: dailyProjection(fields, extra) })
    .toArray() as Promise<Array<DailyStatsDocument & StatsExtras>>;
}

export function rangeClause(range: SeriesDocumentRange): Document {
  return {
    'metadata.site': range.site,
    'metadata.page': range.page,
    'metadata.date': { $gte: new Date(range.first), $lte: new Date(range.last) },
  };
}
