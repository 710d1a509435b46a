/**
 * `stats.seconds`: one document per site, page and UTC minute, in seed 001's shape adapted to ours:
 * `{ _id: "YYYYMMDDHHmm/site/page", metadata: {date, site, page}, minute: <minute total>, seconds: {"0".."59"} }`.
 * Recent data only: the collection expires after the retention window (see secondsRetention.ts).
 */
import type { AnyBulkWriteOperation, Collection, Db, Document } from 'mongodb';
import { MINUTE_MS, minuteKey } from '../time/buckets';
import type { HitParts } from '../time/hitParts';
import { rangeClause } from './dailyStats';
import { documentId } from './documentId';
import type { PendingDocument, PendingUpdates } from './PendingUpdates';
import { counterUpsert } from './counterUpsert';
import type { Targeting } from './counterUpsert';
import type { SeriesDocumentRange } from './SeriesDocumentRange';
import { extraProjection } from './statsExtras';
import type { ExtraFields, StatsExtras } from './statsExtras';
import type { ExpiringCollection, SweepPlan } from './ttlOrSweep';

export const SECONDS_COLLECTION = 'stats.seconds';

export interface SecondStatsDocument {
  _id: string;
  metadata: { date: Date; site: string; page: string };
  minute?: number;
  seconds?: Record<string, number>;
}

export const secondIndexes = [
  { key: { 'metadata.site': 1, 'metadata.page': 1, 'metadata.date': 1 }, name: 'site_page_date' },
] as const;

export const SECONDS_TTL_INDEX_NAME = 'expire_after_retention';

export function secondsCollection(db: Db): Collection<SecondStatsDocument> {
  return db.collection<SecondStatsDocument>(SECONDS_COLLECTION);
}

export function secondsDocumentId(site: string, page: string, minuteMs: number): string {
  return documentId(minuteKey(minuteMs), site, page);
}

/** The ids of every minute document a range covers. */
export function secondsDocumentIds(range: SeriesDocumentRange): string[] {
  const ids: string[] = [];
  for (let minute = range.first; minute <= range.last; minute += MINUTE_MS) {
    ids.push(secondsDocumentId(range.site, range.page, minute));
  }
  return ids;
}

export const SECONDS_PROJECTION = { _id: 0, metadata: 1, seconds: 1 } as const;

const SECOND_PATHS = Array.from({ length: 60 }, (_, s) => `seconds.${s}`);

export function addHitToSeconds(
  pending: PendingUpdates,
  site: string,
  page: string,
  count: number,
  parts: HitParts,
): PendingDocument {
  const document = pending.document(site, page, parts.minute, secondsDocumentId);
  document.add('minute', count);
  document.add(SECOND_PATHS[parts.secondOfMinute] as string, count);
  return document;
}

/** The 60 zero-filled minute documents of the hour starting at `hourMs`; existing documents are left alone. */
export function preallocatedSecondsHour(
  site: string,
  page: string,
  hourMs: number,
  targeting: Targeting,
): AnyBulkWriteOperation<Document>[] {
  const seconds: Record<string, number> = {};
  for (let s = 0; s < 60; s++) seconds[s] = 0;
  const operations: AnyBulkWriteOperation<Document>[] = [];
  for (let m = 0; m < 60; m++) {
    const minute = hourMs + m * MINUTE_MS;
    const key = { id: secondsDocumentId(site, page, minute), site, page, date: new Date(minute) };
    operations.push(counterUpsert(key, targeting, { zeros: { minute: 0, seconds } }));
  }
  return operations;
}

/** One find for many series: the same `$or` of index-served (site, page, date range) clauses as daily. */
export function secondsProjection(extra?: ExtraFields): Document {
  return { ...SECONDS_PROJECTION, ...extraProjection(extra) };
}

export async function findSeconds(
  collection: Collection<SecondStatsDocument>,
  ranges: readonly SeriesDocumentRange[],
  extra?: ExtraFields,
): Promise<Array<SecondStatsDocument & StatsExtras>> {
  if (ranges.length === 0) return [];
  return collection
    .find({ $or: ranges.map(rangeClause) }, { projection: secondsProjection(extra) })
    .toArray() as Promise<Array<SecondStatsDocument & StatsExtras>>;
}

/** The collection as its retention sweep sees it (ttlOrSweep): expired by `metadata.date`, the minute's start. */
export function expiringSeconds(
  finder: Collection<SecondStatsDocument>,
  writer: Collection<SecondStatsDocument>,
  plan: SweepPlan,
): ExpiringCollection {
  return {
    what: 'second-level documents',
    finder: finder as unknown as Collection<Document>,
    writer: writer as unknown as Collection<Document>,
    field: 'metadata.date',
    plan,
  };
}
