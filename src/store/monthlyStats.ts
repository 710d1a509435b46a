/**
 * `stats.monthly`: one document per site, page and UTC month: `{ metadata: {date, site, page}, daily: {"1".."31"} }`.
 * DAY, WEEK and MONTH series read these, so a 90-day chart costs about three documents, not ninety.
 */
import type { AnyBulkWriteOperation, Collection, Db, Document } from 'mongodb';
import { DAY_MS, addMonths, daysInMonth, monthKey, startOfMonth } from '../time/buckets';
import type { HitParts } from '../time/hitParts';
import { documentId } from './documentId';
import type { PendingDocument, PendingUpdates } from './PendingUpdates';
import { counterUpsert } from './counterUpsert';
import type { Targeting } from './counterUpsert';
import { rangeClause } from './dailyStats';
import type { SeriesDocumentRange } from './SeriesDocumentRange';
import { extraProjection } from './statsExtras';
import type { ExtraFields, StatsExtras } from './statsExtras';

export const MONTHLY_COLLECTION = 'stats.monthly';

export interface MonthlyStatsDocument {
  _id: string;
  metadata: { date: Date; site: string; page: string };
  daily?: Record<string, number>;
}

export const monthlyIndexes = [
  { key: { 'metadata.site': 1, 'metadata.page': 1, 'metadata.date': 1 }, name: 'site_page_date' },
] as const;

export function monthlyCollection(db: Db): Collection<MonthlyStatsDocument> {
  // Compacted sketches and counters (vz, dvz, dz) are binaries: read them as Buffers, the bytes their readers take.
  return db.collection<MonthlyStatsDocument>(MONTHLY_COLLECTION, { promoteBuffers: true });
}

export function monthlyDocumentId(site: string, page: string, monthMs: number): string {
  return documentId(monthKey(monthMs), site, page);
}

export const MONTHLY_PROJECTION = { _id: 0, metadata: 1, daily: 1 } as const;

/** The ids of every monthly document a range covers. */
export function monthlyDocumentIds(range: SeriesDocumentRange): string[] {
  const ids: string[] = [];
  for (let month = range.first; month <= range.last; month = addMonths(month, 1)) {
    ids.push(monthlyDocumentId(range.site, range.page, month));
  }
  return ids;
}

const DAY_OF_MONTH_PATHS = Array.from({ length: 32 }, (_, d) => `daily.${d}`);

export function addHitToMonthly(
  pending: PendingUpdates,
  site: string,
  page: string,
  count: number,
  parts: HitParts,
): PendingDocument {
  const document = pending.document(site, page, parts.month, monthlyDocumentId);
  document.add(DAY_OF_MONTH_PATHS[parts.dayOfMonth] as string, count);
  return document;
}

/** A zero-filled month with exactly the days it has. */
export function preallocatedMonthly(
  site: string,
  page: string,
  dayMs: number,
  targeting: Targeting,
): AnyBulkWriteOperation<Document> {
  const month = startOfMonth(dayMs);
  const daily: Record<string, number> = {};
  for (let d = 1; d <= daysInMonth(month); d++) daily[d] = 0;
  const key = { id: monthlyDocumentId(site, page, month), site, page, date: new Date(month) };
  return counterUpsert(key, targeting, { zeros: { daily } });
}

export function monthlyProjection(extra?: ExtraFields): Document {
  return { ...MONTHLY_PROJECTION, ...extraProjection(extra) };
}

export async function findMonthly(
  collection: Collection<MonthlyStatsDocument>,
  ranges: readonly SeriesDocumentRange[],
  extra?: ExtraFields,
): Promise<Array<MonthlyStatsDocument & StatsExtras>> {
  if (ranges.length === 0) return [];
  return collection
    .find({ $or: ranges.map(rangeClause) }, { projection: monthlyProjection(extra) })
    .toArray() as Promise<Array<MonthlyStatsDocument & StatsExtras>>;
}

/**
 * The start of the first UTC day with a hit in `page`'s monthly documents (the site total with SITE_TOTAL_PAGE), or
 * undefined: one find on the `site_page_date` index in date order. Preallocated months hold only zeros, so the
 * cursor passes over those (at most the month or two preallocation creates ahead) to the first counted day.
 */
export async function findFirstCountedDay(
  collection: Collection<MonthlyStatsDocument>,
  site: string,
  page: string,
): Promise<number | undefined> {
  const cursor = collection
    .find({ 'metadata.site': site, 'metadata.page': page }, { projection: MONTHLY_PROJECTION, batchSize: 4 })
    .sort({ 'metadata.site': 1, 'metadata.page': 1, 'metadata.date': 1 });
  try {
    for await (const doc of cursor) {
      const days = Object.entries(doc.daily ?? {})
        .filter(([, count]) => count > 0)
        .map(([day]) => Number(day));
      if (days.length > 0) return doc.metadata.date.getTime() + (Math.min(...days) - 1) * DAY_MS;
    }
    return undefined;
  } finally {
    await cursor.close();
  }
}
