/**
 * `stats.rollups` (issue 27): per site and UTC day, and per site and month, the hits of each
 * page (`p.<page key>`, PageRollup) beside the period's total `t` (and a month's hits per day of the month, `d`).
 * `topPages` and page goals read these small documents instead of the site-day and site-month documents, which hold
 * the site's sketches, dimension counters and minutes too: FerretDB 1.x decodes a stored row whole whatever the
 * projection, and a busy site-day document passes 500 KB (docs/benchmarks/peer-goatcounter.md).
 *
 * Every hit of a site increments `t` of its day's and month's documents in the same upsert as its page's `p` key;
 * a page the document does not admit (the cap) counts in `t` only. So a document is complete when its pages add up
 * to `t`, and each read checks that instead of trusting it.
 *
 * What the documents cannot say is whether hits were counted before rollups existed: a database written by an
 * earlier version holds days whose hits are in `stats.daily` and not here. The marker `{_id: "since"}` says from
 * which UTC day every hit was rolled up. A writer that rolls up creates it on start-up:
 * epoch 0 on a database without counters, else the next UTC day (the rest of today, and earlier days, are ranked as
 * before: PageRollup's site-day fields, then the pages' documents). A writer that does not roll up deletes it, so a
 * later start with rollups begins again from its next day. Instances sharing a database share the setting.
 */
import type { Collection, Db, Document } from 'mongodb';
import { SITE_TOTAL_PAGE } from '../domain/siteTotal';
import { DAY_MS, startOfDay } from '../time/buckets';
import type { BulkUpsertOptions } from './bulkUpsert';
import { dailyDocumentId } from './dailyStats';
import { insertIfAbsent } from './insertIfAbsent';
import type { StringIdDocument } from './insertIfAbsent';
import { monthlyDocumentId } from './monthlyStats';
import type { IdOf, PendingDocument, PendingUpdates } from './PendingUpdates';
import { translateDriverError } from './translateDriverError';

export const ROLLUPS_COLLECTION = 'stats.rollups';

/** The marker's `_id` (no counter id lacks a "/"). */
export const ROLLUP_MARKER_ID = 'since';

export interface PageRollupDocument {
  _id: string;
  metadata: { site: string; page: string; date: Date };
  /** Every hit of the period that reached this document. */
  t?: number;
  /** Monthly documents: hits per day of the month, "1" … "31". */
  d?: Record<string, number>;
  /** Hits per admitted page key (PageRollup). */
  p?: Record<string, number>;
}

/** Deletions find a site's documents by these (scanIds), as in the counter collections. */
export const rollupIndexes = [
  { key: { 'metadata.site': 1, 'metadata.page': 1, 'metadata.date': 1 }, name: 'site_page_date' },
] as const;

export function rollupsCollection(db: Db): Collection<PageRollupDocument> {
  return db.collection<PageRollupDocument>(ROLLUPS_COLLECTION);
}

/**
 * The same ids as the site's totals: `<YYYYMMDD>/<site>` and `<YYYYMM>/<site>`, so days and months share one
 * collection (one more bulk write per flush, not two) and deletions match them as they match the totals.
 */
export const rollupDayId: IdOf = (site, _page, day) => dailyDocumentId(site, SITE_TOTAL_PAGE, day);
export const rollupMonthId: IdOf = (site, _page, month) => monthlyDocumentId(site, SITE_TOTAL_PAGE, month);

const DAY_OF_MONTH_PATHS = Array.from({ length: 32 }, (_, d) => `d.${d}`);

/** A hit's day and month documents, its total counted in both. */
export function addHitToRollups(
  days: PendingUpdates,
  months: PendingUpdates,
  site: string,
  count: number,
  parts: { readonly day: number; readonly month: number; readonly dayOfMonth: number },
): { readonly day: PendingDocument; readonly month: PendingDocument } {
  const day = days.document(site, SITE_TOTAL_PAGE, parts.day, rollupDayId);
  const month = months.document(site, SITE_TOTAL_PAGE, parts.month, rollupMonthId);
  day.add('t', count);
  month.add('t', count);
  month.add(DAY_OF_MONTH_PATHS[parts.dayOfMonth] as string, count);
  return { day, month };
}

/**
 * The first UTC day from which the marker vouches for rollups, written if absent (once, whoever starts first):
 * 0 where `hasCounters` is false (nothing was counted before), else the day after `now`. Returns what is stored.
 */
export async function ensureRollupMarker(
  rollups: Collection<PageRollupDocument>,
  hasCounters: () => Promise<boolean>,
  now: number,
  options: BulkUpsertOptions,
): Promise<number> {
  const existing = await readRollupMarker(rollups);
  if (existing !== undefined) return existing;
  const day = (await hasCounters()) ? startOfDay(now) + DAY_MS : 0;
  const stored = await insertIfAbsent(
    rollups as unknown as Collection<StringIdDocument>,
    ROLLUP_MARKER_ID,
    { day: new Date(day) },
    options,
  );
  return markerDay(stored) ?? day;
}

/** Deletes the marker: a writer that does not roll up leaves nothing vouching for later days. */
export async function clearRollupMarker(rollups: Collection<PageRollupDocument>): Promise<void> {
  try {
    await (rollups as unknown as Collection<Document>).deleteOne({ _id: ROLLUP_MARKER_ID } as Document);
  } catch (error) {
    throw translateDriverError(error);
  }
}

export async function readRollupMarker(rollups: Collection<PageRollupDocument>): Promise<number | undefined> {
  try {
    const doc = await (rollups as unknown as Collection<Document>).findOne({ _id: ROLLUP_MARKER_ID } as Document);
    return doc === null ? undefined : markerDay(doc);
  } catch (error) {
    throw translateDriverError(error);
  }
}

/** The marker's day, epoch ms; undefined for anything else. */
export function markerDay(doc: Readonly<Document>): number | undefined {
  return doc._id === ROLLUP_MARKER_ID && doc.day instanceof Date && !Number.isNaN(doc.day.getTime())
    ? doc.day.getTime()
    : undefined;
}
