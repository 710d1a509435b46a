/**
 * Every counter of one site as stored, flattened to `collection/_id/path → count` (markers, metadata and visitor
 * sketches and visit counters left out: storedSketches reads the sketches), and the same computed naively from hits: the exactly-once tests
 * compare the two at every granularity. Dimension counters are counters too: `…/d/<dimension>/<key>`.
 */
import type { Db } from 'mongodb';
import { DIMENSIONS } from '../../src/domain/dimensions/Dimension';
import type { Dimension, DimensionValues } from '../../src/domain/dimensions/Dimension';
import { dimensionKey } from '../../src/domain/dimensions/dimensionKey';
import type { Hit } from '../../src/domain/Hit';
import { VISITOR_PRECISION } from '../../src/domain/visitors/VisitorPrecision';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { SECONDS_COLLECTION } from '../../src/store/secondStats';
import { ROLLUPS_COLLECTION } from '../../src/store/pageRollups';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export async function storedCounters(db: Db, site: string): Promise<Map<string, number>> {
  const counters = new Map<string, number>();
  const collections = [DAILY_COLLECTION, MONTHLY_COLLECTION, SECONDS_COLLECTION, ROLLUPS_COLLECTION];
  for (const collection of collections) {
    for (const document of await db.collection(collection).find({ 'metadata.site': site }).toArray()) {
      for (const [field, inner] of Object.entries(document)) {
        if (NOT_COUNTERS.has(field)) continue;
        flatten(inner, `${collection}/${String(document._id)}/${field}`, counters);
      }
    }
  }
  return counters;
}

/**
 * Top-level fields that hold no hit counters: id, exactly-once markers, metadata, visitor sketches, and the visit
 * counters (`vh`, `vd`, `dx`, and `vm` in minute documents: issue 29), whose oracle is a sessionisation
 * (test/support/sessionise.ts), not a recount.
 */
const NOT_COUNTERS = new Set(['_id', '_a', 'metadata', 'v', 'dv', 'vh', 'vd', 'dx', 'vm', 've']);

function flatten(value: unknown, path: string, into: Map<string, number>): void {
  if (typeof value === 'number') {
    if (value !== 0) into.set(path, value);
  } else if (value && typeof value === 'object') {
    for (const [field, inner] of Object.entries(value)) flatten(inner, `${path}/${field}`, into);
  }
}

/** Every visitor sketch of one site as stored: `collection/_id/v` and `…/dv/<dimension>/<key>` → register words. */
export async function storedSketches(db: Db, site: string): Promise<Map<string, Record<string, number>>> {
  const sketches = new Map<string, Record<string, number>>();
  for (const collection of [DAILY_COLLECTION, MONTHLY_COLLECTION, SECONDS_COLLECTION]) {
    for (const document of await db.collection(collection).find({ 'metadata.site': site }).toArray()) {
      const prefix = `${collection}/${String(document._id)}`;
      if (document.v) sketches.set(`${prefix}/v`, document.v as Record<string, number>);
      const perValue = (document.dv ?? {}) as Record<string, Record<string, Record<string, number>>>;
      for (const [dimension, values] of Object.entries(perValue)) {
        for (const [key, words] of Object.entries(values)) sketches.set(`${prefix}/dv/${dimension}/${key}`, words);
      }
    }
  }
  return sketches;
}

/** What a hit without dimension inputs is counted under (DIMENSIONS_ENABLED): deriveDimensions' markers. */
export const MARKER_DIMENSIONS: DimensionValues = {
  source: '(direct)',
  utmSource: '(none)',
  utmMedium: '(none)',
  utmCampaign: '(none)',
  browser: '(unknown)',
  os: '(unknown)',
  device: '(unknown)',
  country: '(unknown)',
};

/**
 * What the collections must hold for these hits, each counted once, computed with Date methods only. With
 * `siteTotals` (the server's default, SITE_TOTALS_ENABLED) every hit also counts in its site's daily, monthly and
 * minute documents, whose ids are `<period>/<site>` (page ""). With `dimensions` (the server's default,
 * DIMENSIONS_ENABLED) every hit counts once under each dimension's value in the daily and monthly documents: its
 * own `dimensions`, or the markers of a hit without inputs. With `pageRollup` (default: as `siteTotals`, the server's
 * default, TOP_PAGES_ROLLUP_PAGES) the site's day and month rollups (pageRollups) count the hit in `t` and under
 * `p/<page key>`, and the month's under `d/<day>` too.
 */
export function expectedCounters(
  hits: readonly Hit[],
  options: { siteTotals?: boolean; dimensions?: boolean; pageRollup?: boolean } = {},
): Map<string, number> {
  const counters = new Map<string, number>();
  const add = (path: string, n: number) => counters.set(path, (counters.get(path) ?? 0) + n);
  const countsDimensions = options.dimensions ?? true;
  for (const { site, page, at, count, dimensions } of hits) {
    const values = countsDimensions ? (dimensions ?? MARKER_DIMENSIONS) : undefined;
    const d = new Date(at);
    const [y, mo, day, h, mi, s] = [
      d.getUTCFullYear(),
      d.getUTCMonth() + 1,
      d.getUTCDate(),
      d.getUTCHours(),
      d.getUTCMinutes(),
      d.getUTCSeconds(),
    ];
    for (const counted of options.siteTotals ? [page, ''] : [page]) {
      const daily = `${DAILY_COLLECTION}/${y}${pad(mo)}${pad(day)}/${site}${counted}`;
      const monthly = `${MONTHLY_COLLECTION}/${y}${pad(mo)}/${site}${counted}`;
      add(`${daily}/daily`, count);
      add(`${daily}/hourly/${h}`, count);
      add(`${daily}/minute/${h}/${mi}`, count);
      add(`${monthly}/daily/${day}`, count);
      for (const dimension of values === undefined ? [] : DIMENSIONS) {
        const key = dimensionKey((values as DimensionValues)[dimension]);
        add(`${daily}/d/${dimension}/${key}`, count);
        add(`${monthly}/d/${dimension}/${key}`, count);
      }
      if (counted === '' && (options.pageRollup ?? options.siteTotals)) {
        const rollupDay = `${ROLLUPS_COLLECTION}/${y}${pad(mo)}${pad(day)}/${site}`;
        const rollupMonth = `${ROLLUPS_COLLECTION}/${y}${pad(mo)}/${site}`;
        for (const rollup of [rollupDay, rollupMonth]) {
          add(`${rollup}/t`, count);
          add(`${rollup}/p/${dimensionKey(page)}`, count);
        }
        add(`${rollupMonth}/d/${day}`, count);
      }
      const seconds = `${SECONDS_COLLECTION}/${y}${pad(mo)}${pad(day)}${pad(h)}${pad(mi)}/${site}${counted}`;
      add(`${seconds}/minute`, count);
      add(`${seconds}/seconds/${s}`, count);
    }
  }
  return counters;
}

/**
 * The day totals, the month's days and the minute totals of the seconds collection each sum to the same (pages
 * only: a site-total document, `<collection>/<period>/<site>/…` with no page segment, repeats its pages' counts;
 * dimension counters repeat them too).
 */
export function collectionTotals(counters: ReadonlyMap<string, number>): Record<string, number> {
  const totals = { daily: 0, monthly: 0, seconds: 0 };
  for (const [path, n] of counters) {
    if (isSiteTotal(path) || DIMENSION_COUNTER.test(path)) continue;
    if (path.startsWith(`${DAILY_COLLECTION}/`) && path.endsWith('/daily')) totals.daily += n;
    else if (path.startsWith(`${MONTHLY_COLLECTION}/`)) totals.monthly += n;
    else if (path.startsWith(`${SECONDS_COLLECTION}/`) && path.endsWith('/minute')) totals.seconds += n;
  }
  return totals;
}

/** A dimension counter's path (the tests' pages never hold "/d/<dimension>/"). */
const DIMENSION_COUNTER = new RegExp(`/d/(${DIMENSIONS.join('|')})/`);

/**
 * A site total's counter path: `<daily>/<day>/<site>/daily`, `…/hourly/<h>`, `…/minute/<h>/<m>`,
 * `<monthly>/<month>/<site>/daily/<d>` or `<seconds>/<minute>/<site>/minute`, `…/seconds/<s>` (sites hold no "/",
 * so no page segment follows the site).
 */
function isSiteTotal(path: string): boolean {
  const parts = path.split('/');
  const [collection, , , field] = parts;
  const numeric = (i: number): boolean => /^\d+$/.test(parts[i] ?? '');
  if (collection === MONTHLY_COLLECTION) return parts.length === 5 && field === 'daily' && numeric(4);
  if (collection === SECONDS_COLLECTION) {
    return (field === 'minute' && parts.length === 4) || (field === 'seconds' && parts.length === 5 && numeric(4));
  }
  if (collection !== DAILY_COLLECTION) return false;
  if (field === 'daily') return parts.length === 4;
  if (field === 'hourly') return parts.length === 5 && numeric(4);
  return field === 'minute' && parts.length === 6 && numeric(4) && numeric(5);
}

/**
 * The sketches storedSketches must read for these hits (their `visitor` hashes): each level's `v` at its precision
 * (with `siteTotals`, the site documents' too), and in site documents a `dv` sketch per value of each of
 * `visitorDimensions` (the server's default DIMENSION_VISITORS: device, browser, os), markers where a hit has no
 * dimensions. Sketches OR their visitors in, so however often a hit is written, this is what is stored.
 */
export function expectedSketches(
  hits: readonly Hit[],
  options: { siteTotals?: boolean; visitorDimensions?: readonly Dimension[] } = {},
): Map<string, Record<string, number>> {
  const sketches = new Map<string, VisitorSketch>();
  const add = (path: string, precision: number, hit: Hit) => {
    let sketch = sketches.get(path);
    if (sketch === undefined) sketches.set(path, (sketch = VisitorSketch.empty(precision)));
    sketch.add(hit.visitor as NonNullable<Hit['visitor']>);
  };
  const visitorDimensions = options.visitorDimensions ?? ['device', 'browser', 'os'];
  for (const hit of hits) {
    if (hit.visitor === undefined) continue;
    const d = new Date(hit.at);
    const day = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
    const month = day.slice(0, 6);
    const minute = `${day}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}`;
    const { site, page } = hit;
    add(`${DAILY_COLLECTION}/${day}/${site}${page}/v`, VISITOR_PRECISION.pageDay, hit);
    add(`${MONTHLY_COLLECTION}/${month}/${site}${page}/v`, VISITOR_PRECISION.pageMonth, hit);
    add(`${SECONDS_COLLECTION}/${minute}/${site}${page}/v`, VISITOR_PRECISION.minute, hit);
    if (!options.siteTotals) continue;
    add(`${DAILY_COLLECTION}/${day}/${site}/v`, VISITOR_PRECISION.siteDay, hit);
    add(`${MONTHLY_COLLECTION}/${month}/${site}/v`, VISITOR_PRECISION.siteMonth, hit);
    add(`${SECONDS_COLLECTION}/${minute}/${site}/v`, VISITOR_PRECISION.minute, hit);
    const values = hit.dimensions ?? MARKER_DIMENSIONS;
    for (const dimension of visitorDimensions) {
      const key = dimensionKey(values[dimension]);
      add(`${DAILY_COLLECTION}/${day}/${site}/dv/${dimension}/${key}`, VISITOR_PRECISION.minute, hit);
      add(`${MONTHLY_COLLECTION}/${month}/${site}/dv/${dimension}/${key}`, VISITOR_PRECISION.minute, hit);
    }
  }
  return new Map([...sketches].map(([path, sketch]) => [path, sketch.toStoredFields()]));
}
