/**
 * Section 8: what visitors and dimensions add to stored documents. Every document here is built by the ingest path's
 * own CounterBatch (with the server's default dimension settings), stored as the document its flush's upsert creates
 * (counterDocuments; inserted, because FerretDB takes seconds to apply one upsert naming thousands of new fields, which
 * a live document never receives at once), read back and weighed as BSON (what MongoDB's `Object.bsonsize` reports): a page-day (and its site totals) at 10, 1,000 and
 * 1,000,000 visitors against the same hits without visitors; one site-day of realistic traffic with neither, with
 * visitors, and with visitors and every dimension; a site's day document at 10, 1,000 and 100,000 distinct referrer
 * hosts under DIMENSION_MAX_VALUES (default and the highest allowed), against MongoDB's 16 MB document limit.
 */
import { isDeepStrictEqual } from 'node:util';
import { BSON } from 'mongodb';
import type { Db, Document } from 'mongodb';
import { loadConfig } from '../../src/config/loadConfig';
import { deriveDimensions } from '../../src/domain/dimensions/deriveDimensions';
import type { DimensionContext } from '../../src/domain/dimensions/deriveDimensions';
import type { Dimension } from '../../src/domain/dimensions/Dimension';
import { dimensionKey } from '../../src/domain/dimensions/dimensionKey';
import { OTHER } from '../../src/domain/dimensions/dimensionMarkers';
import type { Hit } from '../../src/domain/Hit';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { splitmix64 } from '../../src/domain/visitors/splitmix64';
import { loadDimensionSources } from '../../src/ingest/loadDimensionSources';
import { CounterBatch } from '../../src/store/CounterBatch';
import type { Targeting } from '../../src/store/counterUpsert';
import { DAILY_COLLECTION, dailyDocumentId } from '../../src/store/dailyStats';
import { largestDimensionMaxValues } from '../../src/store/dimensionDocumentBytes';
import { DimensionCounting } from '../../src/store/DimensionCounting';
import { MONTHLY_COLLECTION, monthlyDocumentId } from '../../src/store/monthlyStats';
import type { PendingUpdates } from '../../src/store/PendingUpdates';
import { AudienceTraffic } from '../shared/audienceTraffic';
import { seededRandom, zipfCdf, zipfPick } from '../shared/random';
import { elapsedMs } from '../shared/stats';
import { upsertedDocument } from './counterDocuments';
import type { AudienceSizes } from './sizes';

/** MongoDB's largest BSON document. */
export const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
/** The highest DIMENSION_MAX_VALUES configuration accepts before the DIMENSION_VISITORS bound (loadConfig). */
const MAX_VALUES_CEILING = 100_000;
// A 30-day month (June 2026); the measured day is its 15th.
const DAY = Date.UTC(2026, 5, 15);
const DAY_MS = 86_400_000;
const PAGE = '/articles/0000.html';
const WRITE_CHUNK = 500;

export interface SketchGrowthRow {
  readonly visitors: number;
  /** BSON bytes without visitors / with them, per document kind. */
  readonly pageDay: { readonly without: number; readonly with: number };
  readonly pageMonth: { readonly without: number; readonly with: number };
  readonly siteDay: { readonly without: number; readonly with: number };
  readonly siteMonth: { readonly without: number; readonly with: number };
}

export interface SiteDayRow {
  readonly hits: number;
  readonly pages: number;
  readonly variant: 'hits only' | 'visitors' | 'visitors and dimensions';
  readonly documents: number;
  /** Every daily document of the site that day: its pages' and its site totals'. */
  readonly dailyBytes: number;
  readonly siteTotalBytes: number;
  /** The day's share of the month: the monthly documents written by the same hits (pages and site totals). */
  readonly monthlyBytes: number;
}

export interface ReferrerHostsRow {
  readonly hosts: number;
  readonly hits: number;
  readonly maxValues: number;
  /** Keys under `d.source` in the site's day document, `(other)` included, and the hits counted under `(other)`. */
  readonly sourceKeys: number;
  readonly otherHits: number;
  readonly documentBytes: number;
  /** BSON bytes of `d` (every dimension's counters) and `dv` (per-value visitor sketches) inside it. */
  readonly dimensionBytes: number;
  readonly dimensionVisitorBytes: number;
}

export interface AudienceStorageResult {
  readonly engine: string;
  readonly maxValues: number;
  readonly dimensionVisitors: readonly string[];
  readonly sketchGrowth: SketchGrowthRow[];
  readonly siteDays: SiteDayRow[];
  readonly referrerHosts: ReferrerHostsRow[];
}

/** DIMENSION_MAX_VALUES and DIMENSION_VISITORS. */
interface DimensionDefaults {
  readonly maxValues: number;
  readonly visitors: readonly Dimension[];
}

export interface AudienceStorageDeps {
  readonly db: Db;
  readonly engine: string;
  readonly targeting: Targeting;
  readonly sizes: AudienceSizes;
  readonly log: (line: string) => void;
}

export async function runAudienceStorage(deps: AudienceStorageDeps): Promise<AudienceStorageResult> {
  const defaults = loadConfig({}).dimensions;
  const sketchGrowth: SketchGrowthRow[] = [];
  for (const visitors of deps.sizes.storageVisitors) {
    const began = process.hrtime.bigint();
    sketchGrowth.push(await sketchGrowthAt(deps, visitors));
    const row = sketchGrowth[sketchGrowth.length - 1] as SketchGrowthRow;
    deps.log(
      `  ${visitors.toLocaleString('en-US')} visitors: page-day ${row.pageDay.without} → ${row.pageDay.with} bytes, ` +
        `site-day ${row.siteDay.without} → ${row.siteDay.with} bytes (${seconds(began)})`,
    );
  }
  const context: DimensionContext = { siteHost: '', ...loadDimensionSources(undefined) };
  const siteDays: SiteDayRow[] = [];
  for (const hits of deps.sizes.storageSiteDayHits) {
    for (const variant of ['hits only', 'visitors', 'visitors and dimensions'] as const) {
      const began = process.hrtime.bigint();
      const row = await siteDay(deps, context, hits, variant, defaults);
      siteDays.push(row);
      deps.log(
        `  site-day of ${hits.toLocaleString('en-US')} hits, ${variant}: ${row.documents} daily documents, ` +
          `${row.dailyBytes.toLocaleString('en-US')} bytes (site totals ${row.siteTotalBytes.toLocaleString('en-US')}; ${seconds(began)})`,
      );
    }
  }
  const referrerHosts: ReferrerHostsRow[] = [];
  const largest = Math.max(...deps.sizes.storageHosts);
  const ceiling = largestDimensionMaxValues(defaults.visitors, MAX_VALUES_CEILING);
  for (const hosts of deps.sizes.storageHosts) {
    const maxValuesList =
      hosts === largest && hosts > defaults.maxValues && ceiling > defaults.maxValues
        ? [defaults.maxValues, ceiling]
        : [defaults.maxValues];
    for (const maxValues of maxValuesList) {
      const began = process.hrtime.bigint();
      const row = await referrerHostsDay(deps, context, hosts, { maxValues, visitors: defaults.visitors });
      referrerHosts.push(row);
      deps.log(
        `  ${hosts.toLocaleString('en-US')} referrer hosts, DIMENSION_MAX_VALUES=${maxValues}: site day document ` +
          `${row.documentBytes.toLocaleString('en-US')} bytes, ${row.sourceKeys} source keys, ${row.otherHits} hits under (other) (${seconds(began)})`,
      );
    }
  }
  return {
    engine: deps.engine,
    maxValues: defaults.maxValues,
    dimensionVisitors: defaults.visitors,
    sketchGrowth,
    siteDays,
    referrerHosts,
  };
}

/** `count` hits on one page-day, one per visitor; with or without their visitor hashes. */
async function sketchGrowthAt(deps: AudienceStorageDeps, visitors: number): Promise<SketchGrowthRow> {
  const sizes: Record<'with' | 'without', Record<string, number>> = { with: {}, without: {} };
  for (const kind of ['with', 'without'] as const) {
    // Names of equal length, so the two documents differ by their sketch alone.
    const site = `v${String(visitors).padStart(7, '0')}-${kind === 'with' ? 'with' : 'none'}.example`;
    const batch = new CounterBatch({ siteTotals: true });
    const random = seededRandom(8008);
    for (let i = 0; i < visitors; i++) {
      const at = DAY + Math.floor(random() * DAY_MS);
      batch.add({ site, page: PAGE, at, count: 1, visitor: kind === 'with' ? splitmix64(8008, i) : undefined });
    }
    await write(deps, batch);
    if (visitors === Math.min(...deps.sizes.storageVisitors)) await verifyAsUpserted(deps, batch);
    const [pageDay, siteDayDoc] = await documentSizes(deps.db, DAILY_COLLECTION, [
      dailyDocumentId(site, PAGE, DAY),
      dailyDocumentId(site, SITE_TOTAL_PAGE, DAY),
    ]);
    const month = Date.UTC(2026, 5, 1);
    const [pageMonth, siteMonth] = await documentSizes(deps.db, MONTHLY_COLLECTION, [
      monthlyDocumentId(site, PAGE, month),
      monthlyDocumentId(site, SITE_TOTAL_PAGE, month),
    ]);
    sizes[kind] = {
      pageDay: pageDay ?? 0,
      siteDay: siteDayDoc ?? 0,
      pageMonth: pageMonth ?? 0,
      siteMonth: siteMonth ?? 0,
    };
  }
  const pair = (name: string): { without: number; with: number } => ({
    without: sizes.without[name] ?? 0,
    with: sizes.with[name] ?? 0,
  });
  return {
    visitors,
    pageDay: pair('pageDay'),
    pageMonth: pair('pageMonth'),
    siteDay: pair('siteDay'),
    siteMonth: pair('siteMonth'),
  };
}

/** One day of a site with `hits` hits over 500 Zipf-popular pages and a realistic audience. */
async function siteDay(
  deps: AudienceStorageDeps,
  context: DimensionContext,
  hits: number,
  variant: SiteDayRow['variant'],
  defaults: DimensionDefaults,
): Promise<SiteDayRow> {
  const pages = 500;
  const site = `d${String(hits).padStart(7, '0')}-${['hits only', 'visitors', 'visitors and dimensions'].indexOf(variant)}.example`;
  const audience = new AudienceTraffic({
    seed: 9009,
    visitors: Math.max(10, Math.round(hits / 3)),
    visitorZipfS: 0.6,
    siteHost: site,
    longTailHosts: 2_000,
    longTailZipfS: 1,
  });
  const dimensions =
    variant === 'visitors and dimensions'
      ? new DimensionCounting({ maxValues: defaults.maxValues, visitorDimensions: defaults.visitors })
      : undefined;
  const batch = new CounterBatch({ siteTotals: true, dimensions });
  const cdf = zipfCdf(pages, 1);
  const random = seededRandom(9009);
  const siteContext = { ...context, siteHost: site };
  for (let i = 0; i < hits; i++) {
    const page = `/articles/${String(zipfPick(cdf, random())).padStart(4, '0')}.html`;
    const at = DAY + Math.floor((i + random()) * (DAY_MS / hits));
    const who = audience.hit(i);
    const hit: Hit = {
      site,
      page,
      at,
      count: 1,
      visitor: variant === 'hits only' ? undefined : splitmix64(9009, who.visitorRank),
      dimensions:
        dimensions === undefined
          ? undefined
          : deriveDimensions(
              { referrer: who.referrer, userAgent: who.userAgent, clientIp: who.clientIp, pageUrl: page },
              who.utm,
              siteContext,
            ),
    };
    batch.add(hit);
  }
  await write(deps, batch);
  const daily = await documentSizes(deps.db, DAILY_COLLECTION, ids(batch.daily));
  const monthly = await documentSizes(deps.db, MONTHLY_COLLECTION, ids(batch.monthly));
  const [siteTotal] = await documentSizes(deps.db, DAILY_COLLECTION, [dailyDocumentId(site, SITE_TOTAL_PAGE, DAY)]);
  return {
    hits,
    pages,
    variant,
    documents: daily.length,
    dailyBytes: sum(daily),
    siteTotalBytes: siteTotal ?? 0,
    monthlyBytes: sum(monthly),
  };
}

/** A site-day whose referred hits come from `hosts` distinct hosts, two hits each, on 20 pages. */
async function referrerHostsDay(
  deps: AudienceStorageDeps,
  context: DimensionContext,
  hosts: number,
  settings: DimensionDefaults,
): Promise<ReferrerHostsRow> {
  const site = `h${String(hosts).padStart(7, '0')}-${settings.maxValues}.example`;
  const audience = new AudienceTraffic({
    seed: 1010,
    visitors: Math.max(10, hosts),
    visitorZipfS: 0.6,
    siteHost: site,
    longTailHosts: 10,
    longTailZipfS: 0,
  });
  const batch = new CounterBatch({
    siteTotals: true,
    dimensions: new DimensionCounting({ maxValues: settings.maxValues, visitorDimensions: settings.visitors }),
  });
  const hits = 2 * hosts;
  const siteContext = { ...context, siteHost: site };
  for (let i = 0; i < hits; i++) {
    const page = `/articles/${String(i % 20).padStart(4, '0')}.html`;
    const who = audience.hit(i);
    batch.add({
      site,
      page,
      at: DAY + Math.floor((i * DAY_MS) / hits),
      count: 1,
      visitor: splitmix64(1010, who.visitorRank),
      dimensions: deriveDimensions(
        { referrer: `https://host-${i % hosts}.example.org/`, userAgent: who.userAgent, clientIp: who.clientIp },
        undefined,
        siteContext,
      ),
    });
  }
  await write(deps, batch);
  if (hosts === Math.min(...deps.sizes.storageHosts)) await verifyAsUpserted(deps, batch);
  const id = dailyDocumentId(site, SITE_TOTAL_PAGE, DAY);
  const document = (await deps.db
    .collection<{ _id: string }>(DAILY_COLLECTION)
    .findOne({ _id: id })) as Document | null;
  if (document === null) throw new Error(`the site's day document ${id} was not written`);
  const d = (document.d ?? {}) as Record<string, Record<string, number>>;
  const source = d.source ?? {};
  return {
    hosts,
    hits,
    maxValues: settings.maxValues,
    sourceKeys: Object.keys(source).length,
    otherHits: source[dimensionKey(OTHER)] ?? 0,
    documentBytes: BSON.calculateObjectSize(document),
    dimensionBytes: BSON.calculateObjectSize({ d: document.d ?? {} }) - BSON.calculateObjectSize({}),
    dimensionVisitorBytes: BSON.calculateObjectSize({ dv: document.dv ?? {} }) - BSON.calculateObjectSize({}),
  };
}

/**
 * Writes the batch again with the upserts its flush sends, into collections of their own, and fails unless every
 * document comes back equal to the inserted one: the check that inserting upsertedDocument stores what tally would.
 */
async function verifyAsUpserted(deps: AudienceStorageDeps, batch: CounterBatch): Promise<void> {
  for (const [name, updates] of [
    [DAILY_COLLECTION, batch.daily],
    [MONTHLY_COLLECTION, batch.monthly],
  ] as const) {
    const upserted = deps.db.collection(`upserted.${name}`);
    await upserted.bulkWrite(updates.toOperations(deps.targeting), { ordered: false });
    for (const id of ids(updates)) {
      const [stored, inserted] = await Promise.all([
        upserted.findOne({ _id: id as never }),
        deps.db.collection(name).findOne({ _id: id as never }),
      ]);
      if (stored === null || !isDeepStrictEqual(stored, inserted))
        throw new Error(
          `${name} ${id}: the upsert stored ${JSON.stringify(stored)}, the insert ${JSON.stringify(inserted)}`,
        );
    }
  }
}

/** Stores a batch's daily and monthly documents as its flush's upserts would create them (no seconds: none asked). */
async function write(deps: AudienceStorageDeps, batch: CounterBatch): Promise<void> {
  for (const [name, updates] of [
    [DAILY_COLLECTION, batch.daily],
    [MONTHLY_COLLECTION, batch.monthly],
  ] as const) {
    const documents = updates.toOperations(deps.targeting).map(upsertedDocument);
    for (let i = 0; i < documents.length; i += WRITE_CHUNK) {
      await deps.db.collection(name).insertMany(documents.slice(i, i + WRITE_CHUNK), { ordered: false });
    }
  }
}

function ids(updates: PendingUpdates): string[] {
  return updates.keys().map(({ id }) => id);
}

/** BSON sizes of the stored documents with these ids, in the order found (missing ones are skipped). */
async function documentSizes(db: Db, collection: string, wanted: readonly string[]): Promise<number[]> {
  const sizes = new Map<string, number>();
  for (let i = 0; i < wanted.length; i += WRITE_CHUNK) {
    const chunk = wanted.slice(i, i + WRITE_CHUNK);
    for await (const document of db.collection<{ _id: string }>(collection).find({ _id: { $in: chunk } })) {
      sizes.set(document._id, BSON.calculateObjectSize(document));
    }
  }
  return wanted.flatMap((id) => (sizes.has(id) ? [sizes.get(id) as number] : []));
}

function seconds(began: bigint): string {
  return `${(elapsedMs(began) / 1000).toFixed(1)} s`;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
