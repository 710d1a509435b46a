/**
 * Writes counter documents directly in the CONTRACT format of issues 19 and 20 (`v`, `d`, `dv` beside the hit
 * counters), independent of the write path, for read-path tests: hits with an optional synthetic visitor (a number,
 * hashed with splitmix64 as the probes do) and optional dimension values (markers fill the rest, so every hit has one
 * value per dimension). Page documents and, unless turned off, site-total documents (page ""); minute documents of
 * `stats.seconds` with their own `v` for the minutes given in `minuteSketchesFrom`.. onwards. Also the exact answers
 * the read path is compared with: the distinct visitors of a span, and the sketch the span's visitors build directly.
 */
import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import { DIMENSIONS } from '../../src/domain/dimensions/Dimension';
import type { Dimension } from '../../src/domain/dimensions/Dimension';
import { dimensionKey } from '../../src/domain/dimensions/dimensionKey';
import { DIRECT, NONE, UNKNOWN } from '../../src/domain/dimensions/dimensionMarkers';
import { SITE_TOTAL_PAGE } from '../../src/domain/siteTotal';
import { splitmix64 } from '../../src/domain/visitors/splitmix64';
import { VISITOR_PRECISION } from '../../src/domain/visitors/VisitorPrecision';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';
import { DAILY_COLLECTION, dailyDocumentId } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION, monthlyDocumentId } from '../../src/store/monthlyStats';
import { SECONDS_COLLECTION, secondsDocumentId } from '../../src/store/secondStats';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The seed every synthetic visitor hash uses: visitor n hashes to splitmix64(VISITOR_SEED, n). */
export const VISITOR_SEED = 19;

export interface SeedHit {
  readonly site: string;
  readonly page: string;
  readonly at: number;
  readonly count?: number;
  /** A synthetic visitor id; absent: a hit without a visitor (adds nothing to any sketch). */
  readonly visitor?: number;
  readonly dimensions?: Partial<Record<Dimension, string>>;
}

export interface SeedOptions {
  /** Write site-total documents too (default true). */
  readonly siteTotals?: boolean;
  /** Dimensions whose site documents keep per-value sketches (`dv`); default device, browser, os. */
  readonly dimensionVisitors?: readonly Dimension[];
  /** Minute documents (with `v`) are written for hits at or after this instant; default never. */
  readonly minuteSketchesFrom?: number;
}

const MARKERS: Record<Dimension, string> = {
  source: DIRECT,
  utmSource: NONE,
  utmMedium: NONE,
  utmCampaign: NONE,
  browser: UNKNOWN,
  os: UNKNOWN,
  device: UNKNOWN,
  country: UNKNOWN,
};

/** Every dimension's value for a hit: the ones given, markers for the rest. */
export function hitDimensions(hit: SeedHit): Record<Dimension, string> {
  return Object.fromEntries(DIMENSIONS.map((d) => [d, hit.dimensions?.[d] ?? MARKERS[d]])) as Record<Dimension, string>;
}

class SeedDocument {
  readonly counters = new Map<string, number>();
  readonly sketch: VisitorSketch;
  readonly dimensions = new Map<Dimension, Map<string, number>>();
  readonly dimensionSketches = new Map<Dimension, Map<string, VisitorSketch>>();

  constructor(
    readonly collection: string,
    readonly id: string,
    readonly metadata: { date: Date; site: string; page: string },
    readonly precision: number,
  ) {
    this.sketch = VisitorSketch.empty(precision);
  }

  toDocument(): Document {
    const doc: Document = { _id: this.id, metadata: this.metadata };
    for (const [path, n] of this.counters) setPath(doc, path, n);
    const v = this.sketch.toStoredFields();
    if (Object.keys(v).length > 0) doc.v = v;
    if (this.dimensions.size > 0) {
      doc.d = Object.fromEntries([...this.dimensions].map(([dim, keys]) => [dim, Object.fromEntries(keys)]));
    }
    if (this.dimensionSketches.size > 0) {
      doc.dv = Object.fromEntries(
        [...this.dimensionSketches].map(([dim, keys]) => [
          dim,
          Object.fromEntries([...keys].map(([key, sketch]) => [key, sketch.toStoredFields()])),
        ]),
      );
    }
    return doc;
  }
}

function setPath(doc: Document, path: string, n: number): void {
  const parts = path.split('.');
  let node = doc;
  for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Document;
  const last = parts[parts.length - 1] as string;
  node[last] = ((node[last] as number | undefined) ?? 0) + n;
}

/** The documents `hits` make, by collection; what seedStats inserts. */
export function seedDocuments(hits: readonly SeedHit[], options: SeedOptions = {}): Map<string, Document[]> {
  const docs = new Map<string, SeedDocument>();
  const sketched = new Set(options.dimensionVisitors ?? ['device', 'browser', 'os']);
  const get = (
    collection: string,
    id: string,
    date: number,
    site: string,
    page: string,
    precision: number,
  ): SeedDocument => {
    let doc = docs.get(`${collection}/${id}`);
    if (!doc) {
      doc = new SeedDocument(collection, id, { date: new Date(date), site, page }, precision);
      docs.set(`${collection}/${id}`, doc);
    }
    return doc;
  };
  for (const hit of hits) {
    const count = hit.count ?? 1;
    const day = hit.at - (((hit.at % DAY) + DAY) % DAY);
    const date = new Date(day);
    const month = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    const minute = hit.at - (((hit.at % MINUTE) + MINUTE) % MINUTE);
    const hour = Math.floor((hit.at - day) / HOUR);
    const minuteOfHour = Math.floor((hit.at - day - hour * HOUR) / MINUTE);
    const hash = hit.visitor === undefined ? undefined : splitmix64(VISITOR_SEED, hit.visitor);
    const values = hitDimensions(hit);
    const pages = options.siteTotals === false ? [hit.page] : [hit.page, SITE_TOTAL_PAGE];
    for (const page of pages) {
      const site = page === SITE_TOTAL_PAGE;
      const daily = get(
        DAILY_COLLECTION,
        dailyDocumentId(hit.site, page, day),
        day,
        hit.site,
        page,
        site ? VISITOR_PRECISION.siteDay : VISITOR_PRECISION.pageDay,
      );
      daily.counters.set('daily', (daily.counters.get('daily') ?? 0) + count);
      addCounter(daily, `hourly.${hour}`, count);
      addCounter(daily, `minute.${hour}.${minuteOfHour}`, count);
      const monthly = get(
        MONTHLY_COLLECTION,
        monthlyDocumentId(hit.site, page, month),
        month,
        hit.site,
        page,
        site ? VISITOR_PRECISION.siteMonth : VISITOR_PRECISION.pageMonth,
      );
      addCounter(monthly, `daily.${date.getUTCDate()}`, count);
      for (const doc of [daily, monthly]) {
        if (hash) doc.sketch.add(hash);
        for (const dimension of DIMENSIONS) {
          const key = dimensionKey(values[dimension]);
          const byKey = doc.dimensions.get(dimension) ?? new Map<string, number>();
          doc.dimensions.set(dimension, byKey.set(key, (byKey.get(key) ?? 0) + count));
          if (site && hash && sketched.has(dimension)) {
            const sketches = doc.dimensionSketches.get(dimension) ?? new Map<string, VisitorSketch>();
            doc.dimensionSketches.set(dimension, sketches);
            const sketch = sketches.get(key) ?? VisitorSketch.empty(VISITOR_PRECISION.minute);
            sketches.set(key, sketch.add(hash));
          }
        }
      }
      if (options.minuteSketchesFrom !== undefined && hit.at >= options.minuteSketchesFrom) {
        const seconds = get(
          SECONDS_COLLECTION,
          secondsDocumentId(hit.site, page, minute),
          minute,
          hit.site,
          page,
          VISITOR_PRECISION.minute,
        );
        addCounter(seconds, 'minute', count);
        addCounter(seconds, `seconds.${Math.floor((hit.at - minute) / 1000)}`, count);
        if (hash) seconds.sketch.add(hash);
      }
    }
  }
  const byCollection = new Map<string, Document[]>();
  for (const doc of docs.values()) {
    byCollection.set(doc.collection, [...(byCollection.get(doc.collection) ?? []), doc.toDocument()]);
  }
  return byCollection;
}

function addCounter(doc: SeedDocument, path: string, count: number): void {
  doc.counters.set(path, (doc.counters.get(path) ?? 0) + count);
}

/** Inserts the documents `hits` make; none of them may exist yet. */
export async function seedStats(db: Db, hits: readonly SeedHit[], options: SeedOptions = {}): Promise<void> {
  for (const [collection, documents] of seedDocuments(hits, options)) {
    const operations: AnyBulkWriteOperation<Document>[] = documents.map((document) => ({
      insertOne: { document },
    }));
    for (let i = 0; i < operations.length; i += 1_000) {
      await db.collection(collection).bulkWrite(operations.slice(i, i + 1_000), { ordered: false });
    }
  }
}

/** The hits of one page (or the site's totals, page "") inside [from, to), optionally of one dimension value. */
export function hitsIn(
  hits: readonly SeedHit[],
  where: { site: string; page: string; from: number; to: number; dimension?: Dimension; value?: string },
): SeedHit[] {
  return hits.filter(
    (hit) =>
      hit.site === where.site &&
      (where.page === SITE_TOTAL_PAGE || hit.page === where.page) &&
      hit.at >= where.from &&
      hit.at < where.to &&
      (where.dimension === undefined || hitDimensions(hit)[where.dimension] === where.value),
  );
}

/** The estimate of a sketch built directly from these hits' visitors: what merging stored periods must equal. */
export function directEstimate(hits: readonly SeedHit[], precision: number): number {
  const sketch = VisitorSketch.empty(precision);
  for (const hit of hits) if (hit.visitor !== undefined) sketch.add(splitmix64(VISITOR_SEED, hit.visitor));
  return Math.round(sketch.estimate());
}

/** The true number of distinct visitors among these hits. */
export function distinctVisitors(hits: readonly SeedHit[]): number {
  return new Set(hits.flatMap((hit) => (hit.visitor === undefined ? [] : [hit.visitor]))).size;
}
