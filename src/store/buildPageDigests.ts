/**
 * Writes the page digests (pageDigests) of closed periods, as the compaction job's last step: a site-day's digest
 * from its page rollup (pageRollups: which pages, how many hits) and those pages' documents (their sketches), a
 * site-month's from its days' digests (a page's month sketch is the OR of its day sketches: one hash, one register
 * update, the same precision). Nothing is written where the sources disagree — a rollup that does not add up (capped,
 * or written before rollups), a page whose hits differ from its rollup (a hit landed between the reads), a day of the
 * month without a current digest — nor past MAX_PAGE_DIGEST_BYTES: those periods stay read from the pages'
 * documents. Reads go through the caller's finders (the background connection), the write through the digests'
 * writer, one period per paced step.
 */
import type { Collection, Document } from 'mongodb';
import { dimensionValue } from '../domain/dimensions/dimensionKey';
import { VISITOR_PRECISION } from '../domain/visitors/VisitorPrecision';
import { encodeCompactSketch, mergeCompactSketch } from '../domain/visitors/compactSketch';
import { VisitorSketch } from '../domain/visitors/VisitorSketch';
import { DAY_MS } from '../time/buckets';
import type { CompactedLevel } from './compactPastPeriods';
import { dailyDocumentId } from './dailyStats';
import { findByIdList } from './findByIdList';
import { readableRollup } from './PageRollup';
import { decodePageDigest, encodePageDigest } from './pageDigest';
import type { PageDigestEntry } from './pageDigest';
import { findPageDigests, MAX_PAGE_DIGEST_BYTES, monthHits, pageDigestId, writePageDigest } from './pageDigests';
import type { PageDigestDocument } from './pageDigests';
import type { PackedSketch, StoredSketch } from './statsExtras';
import { pacedStep } from './ttlOrSweep';
import type { SweepContext } from './ttlOrSweep';

export interface DigestSources {
  /** stats.daily and stats.monthly, read on the background connection. */
  readonly daily: Collection<Document>;
  readonly monthly: Collection<Document>;
  /** stats.rollups (pageRollups), read on the background connection. */
  readonly rollups: Collection<Document>;
  readonly digests: Collection<PageDigestDocument>;
  /** Where digests are written. */
  readonly writer: Collection<PageDigestDocument>;
}

/** The page precision digests keep: a month digest is read into day-precision sketches too. */
const PRECISION = Math.min(VISITOR_PRECISION.pageDay, VISITOR_PRECISION.pageMonth);

/**
 * Writes the digest of every site total among `ids` (compacted documents of `level`); resolves with how many were
 * written. Page documents among the ids are skipped: their site total's digest covers them.
 */
export async function buildPageDigests(
  sources: DigestSources,
  level: CompactedLevel,
  ids: readonly string[],
  context?: SweepContext,
): Promise<number> {
  let written = 0;
  for (const id of ids.filter(isSiteTotalId)) {
    if (context?.stopped() === true) break;
    const step = (): Promise<boolean> => (level === 'daily' ? dayDigest(sources, id) : monthDigest(sources, id));
    const wrote = context ? await pacedStep(context, `writing the page digest of ${id}`, step) : await step();
    if (wrote) written++;
  }
  return written;
}

/** `<period>/<site>`: a site total's id (a page's id holds a second "/", its page). */
function isSiteTotalId(id: string): boolean {
  const periodEnd = id.indexOf('/');
  return periodEnd >= 0 && !id.includes('/', periodEnd + 1);
}

async function dayDigest(sources: DigestSources, id: string): Promise<boolean> {
  const [total, rollup] = await Promise.all([
    sources.daily.findOne({ _id: id } as Document, { projection: { _id: 0, metadata: 1, daily: 1, p: 1 } }),
    sources.rollups.findOne({ _id: id } as Document, { projection: { _id: 0, t: 1, p: 1 } }),
  ]);
  if (total === null || typeof total.daily !== 'number') return false;
  const { site, date } = total.metadata as { site: string; date: Date };
  // The day's rollup document where it holds every hit of the day, else the site-day fields earlier versions wrote.
  const source = rollup !== null && rollup.t === total.daily ? rollup : total;
  const pages = readableRollup(total.daily, source.p as Record<string, unknown> | undefined, dimensionValue);
  if (pages === undefined) return false;
  const docs = await findByIdList(
    sources.daily,
    [...pages.keys()].map((page) => dailyDocumentId(site, page, date.getTime())),
    { _id: 0, 'metadata.page': 1, daily: 1, v: 1, vz: 1 },
  );
  if (docs.length !== pages.size) return false;
  const entries: PageDigestEntry[] = [];
  for (const doc of docs) {
    const page = (doc.metadata as { page: string }).page;
    if (doc.daily !== pages.get(page)) return false;
    const sketch = VisitorSketch.empty(PRECISION);
    if (doc.v !== undefined) sketch.merge(VisitorSketch.fromStoredFields(doc.v as StoredSketch, PRECISION));
    if (doc.vz !== undefined) sketch.mergePacked(doc.vz as PackedSketch);
    entries.push({ page, hits: doc.daily as number, sketch: encodeCompactSketch(sketch) });
  }
  return write(sources, site, 'day', date.getTime(), total.daily, entries);
}

async function monthDigest(sources: DigestSources, id: string): Promise<boolean> {
  const total = await sources.monthly.findOne({ _id: id } as Document, {
    projection: { _id: 0, metadata: 1, daily: 1 },
  });
  if (total === null || typeof total.daily !== 'object' || total.daily === null) return false;
  const { site, date } = total.metadata as { site: string; date: Date };
  const counts = monthHits(total.daily as Record<string, unknown>);
  const dayStart = (day: string): number => date.getTime() + (Number(day) - 1) * DAY_MS;
  const days = await findPageDigests(
    sources.digests,
    Object.keys(counts).map((day) => pageDigestId(site, 'day', dayStart(day))),
  );
  const byId = new Map(days.map((doc) => [doc._id, doc]));
  const pages = new Map<string, { hits: number; sketch: VisitorSketch }>();
  for (const [day, count] of Object.entries(counts)) {
    const digest = byId.get(pageDigestId(site, 'day', dayStart(day)));
    if (digest === undefined || digest.n !== count) return false;
    for (const entry of decodePageDigest(digest.z)) {
      let page = pages.get(entry.page);
      if (page === undefined) {
        page = { hits: 0, sketch: VisitorSketch.empty(PRECISION) };
        pages.set(entry.page, page);
      }
      page.hits += entry.hits;
      mergeCompactSketch(page.sketch, entry.sketch);
    }
  }
  const entries = [...pages].map(([page, { hits, sketch }]) => ({ page, hits, sketch: encodeCompactSketch(sketch) }));
  return write(sources, site, 'month', date.getTime(), counts, entries);
}

async function write(
  sources: DigestSources,
  site: string,
  level: 'day' | 'month',
  start: number,
  n: PageDigestDocument['n'],
  entries: PageDigestEntry[],
): Promise<boolean> {
  entries.sort((a, b) => (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
  const bytes = encodePageDigest(entries);
  if (bytes.length > MAX_PAGE_DIGEST_BYTES) return false;
  await writePageDigest(sources.writer, site, level, start, n, bytes);
  return true;
}
