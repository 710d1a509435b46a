/**
 * `stats.pageDigests` (issue 28): per site and closed UTC day, and per site and closed month, one document holding
 * every page's hits and visitor sketch in one binary value (pageDigest), so a page goal over 30 days reads 30 small
 * documents instead of one document per matching page and day. Written only by the compaction job once a period is
 * over (buildPageDigests), never by a flush: the hot path writes nothing more.
 *
 * A digest is a copy, so it is checked, never trusted: `n` holds the site total's hits of the period when the digest
 * was written (a day's total; a month's hits per day), and a read uses the digest only while the site-month
 * document still counts exactly those hits. A late hit, a restore or a merge changes the count, and the period is
 * read from the pages' documents again until the next compaction writes a new digest. `_id` is the site total's
 * document id of the period (`<YYYYMMDD>/<site>` or `<YYYYMM>/<site>`), so deleting a site deletes its digests.
 */
import { Binary } from 'mongodb';
import type { Collection, Db, Document } from 'mongodb';
import { SITE_TOTAL_PAGE } from '../domain/siteTotal';
import { dailyDocumentId } from './dailyStats';
import { findByIdList } from './findByIdList';
import { monthlyDocumentId } from './monthlyStats';

export const PAGE_DIGESTS_COLLECTION = 'stats.pageDigests';

/** Larger digests are not written (that period is read from the pages' documents): a quarter of MongoDB's 16 MB. */
export const MAX_PAGE_DIGEST_BYTES = 4 * 1024 * 1024;

export type DigestLevel = 'day' | 'month';

export interface PageDigestDocument {
  _id: string;
  metadata: { site: string; date: Date; level: DigestLevel };
  /** The site total's hits when written: a day's total, or a month's hits per day of the month ("1" … "31"). */
  n: number | Record<string, number>;
  /** pageDigest's bytes (read back as a Buffer). */
  z: Uint8Array;
}

export function pageDigestsCollection(db: Db): Collection<PageDigestDocument> {
  return db.collection<PageDigestDocument>(PAGE_DIGESTS_COLLECTION, { promoteBuffers: true });
}

export function pageDigestId(site: string, level: DigestLevel, start: number): string {
  return level === 'day'
    ? dailyDocumentId(site, SITE_TOTAL_PAGE, start)
    : monthlyDocumentId(site, SITE_TOTAL_PAGE, start);
}

/** A site-month document's hits per day (`daily`), days without hits left out. */
export function monthHits(daily: Readonly<Record<string, unknown>>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [day, count] of Object.entries(daily)) if (typeof count === 'number' && count !== 0) counts[day] = count;
  return counts;
}

/**
 * Whether `digest` still describes its period: the site-month document's hits per day (`monthDaily`, of the
 * digest's month) are those it was written with. Pure.
 */
export function isCurrentDigest(digest: PageDigestDocument, monthDaily: Readonly<Record<string, unknown>>): boolean {
  if (digest.metadata.level === 'day') {
    return typeof digest.n === 'number' && monthDaily[String(digest.metadata.date.getUTCDate())] === digest.n;
  }
  if (typeof digest.n !== 'object') return false;
  const now = monthHits(monthDaily);
  const then = monthHits(digest.n);
  const days = Object.keys(now);
  return days.length === Object.keys(then).length && days.every((day) => now[day] === then[day]);
}

/** The digests of `ids` that exist: one find by id list. */
export function findPageDigests(
  collection: Collection<PageDigestDocument>,
  ids: readonly string[],
): Promise<PageDigestDocument[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return findByIdList(collection as unknown as Collection<Document>, ids, {}) as unknown as Promise<
    PageDigestDocument[]
  >;
}

/** Writes (or replaces) one digest. */
export async function writePageDigest(
  collection: Collection<PageDigestDocument>,
  site: string,
  level: DigestLevel,
  start: number,
  n: PageDigestDocument['n'],
  bytes: Uint8Array,
): Promise<void> {
  const _id = pageDigestId(site, level, start);
  await collection.replaceOne(
    { _id },
    { metadata: { site, date: new Date(start), level }, n, z: new Binary(bytes) as unknown as Uint8Array },
    { upsert: true },
  );
}

/** Deletes every digest of `site` (a page of it was deleted: its digests name the page). Resolves with how many. */
export async function deleteSiteDigests(collection: Collection<PageDigestDocument>, site: string): Promise<number> {
  const result = await collection.deleteMany({ 'metadata.site': site });
  return result.deletedCount;
}

/** Deletes the day digests of days before `daysFrom` (retention dropped those days); resolves with how many. */
export async function deleteDayDigestsBefore(
  collection: Collection<PageDigestDocument>,
  daysFrom: number,
): Promise<number> {
  if (!Number.isFinite(daysFrom)) return 0;
  const result = await collection.deleteMany({ 'metadata.level': 'day', 'metadata.date': { $lt: new Date(daysFrom) } });
  return result.deletedCount;
}
