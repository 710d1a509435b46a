/**
 * Every counter of one site as stored, flattened to `collection/_id/path → count` (markers and metadata left
 * out), and the same computed naively from hits: the exactly-once tests compare the two at every granularity.
 */
import type { Db, Document } from 'mongodb';
import type { Hit } from '../../src/domain/Hit';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { MONTHLY_COLLECTION } from '../../src/store/monthlyStats';
import { SECONDS_COLLECTION } from '../../src/store/secondStats';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export async function storedCounters(db: Db, site: string): Promise<Map<string, number>> {
  const counters = new Map<string, number>();
  for (const collection of [DAILY_COLLECTION, MONTHLY_COLLECTION, SECONDS_COLLECTION]) {
    for (const document of await db.collection(collection).find({ 'metadata.site': site }).toArray()) {
      flatten(document, `${collection}/${String(document._id)}`, counters);
    }
  }
  return counters;
}

function flatten(value: Document, prefix: string, into: Map<string, number>): void {
  for (const [field, inner] of Object.entries(value)) {
    if (field === '_id' || field === '_a' || field === 'metadata') continue;
    const path = `${prefix}/${field}`;
    if (typeof inner === 'number') {
      if (inner !== 0) into.set(path, inner);
    } else if (inner && typeof inner === 'object') flatten(inner as Document, path, into);
  }
}

/**
 * What the collections must hold for these hits, each counted once, computed with Date methods only. With
 * `siteTotals` (the server's default, SITE_TOTALS_ENABLED) every hit also counts in its site's daily and monthly
 * documents, whose ids are `<period>/<site>` (page "").
 */
export function expectedCounters(hits: readonly Hit[], options: { siteTotals?: boolean } = {}): Map<string, number> {
  const counters = new Map<string, number>();
  const add = (path: string, n: number) => counters.set(path, (counters.get(path) ?? 0) + n);
  for (const { site, page, at, count } of hits) {
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
      add(`${daily}/daily`, count);
      add(`${daily}/hourly/${h}`, count);
      add(`${daily}/minute/${h}/${mi}`, count);
      add(`${MONTHLY_COLLECTION}/${y}${pad(mo)}/${site}${counted}/daily/${day}`, count);
    }
    const seconds = `${SECONDS_COLLECTION}/${y}${pad(mo)}${pad(day)}${pad(h)}${pad(mi)}/${site}${page}`;
    add(`${seconds}/minute`, count);
    add(`${seconds}/seconds/${s}`, count);
  }
  return counters;
}

/**
 * The day totals, the month's days and the minute totals of the seconds collection each sum to the same (pages
 * only: a site-total document, `<collection>/<period>/<site>/…` with no page segment, repeats its pages' counts).
 */
export function collectionTotals(counters: ReadonlyMap<string, number>): Record<string, number> {
  const totals = { daily: 0, monthly: 0, seconds: 0 };
  for (const [path, n] of counters) {
    if (isSiteTotal(path)) continue;
    if (path.startsWith(`${DAILY_COLLECTION}/`) && path.endsWith('/daily')) totals.daily += n;
    else if (path.startsWith(`${MONTHLY_COLLECTION}/`)) totals.monthly += n;
    else if (path.startsWith(`${SECONDS_COLLECTION}/`) && path.endsWith('/minute')) totals.seconds += n;
  }
  return totals;
}

/**
 * A site total's counter path: `<daily>/<day>/<site>/daily`, `…/hourly/<h>`, `…/minute/<h>/<m>` or
 * `<monthly>/<month>/<site>/daily/<d>` (sites hold no "/", so no page segment follows the site).
 */
function isSiteTotal(path: string): boolean {
  const parts = path.split('/');
  const [collection, , , field] = parts;
  const numeric = (i: number): boolean => /^\d+$/.test(parts[i] ?? '');
  if (collection === MONTHLY_COLLECTION) return parts.length === 5 && field === 'daily' && numeric(4);
  if (collection !== DAILY_COLLECTION) return false;
  if (field === 'daily') return parts.length === 4;
  if (field === 'hourly') return parts.length === 5 && numeric(4);
  return field === 'minute' && parts.length === 6 && numeric(4) && numeric(5);
}
