/**
 * A batch as the columns of `recordHitColumns` (HitColumnsRequest): sites, pages, visitors, referrers,
 * User-Agents, client addresses and UTM values each sent once, with per-hit indexes. Both targets send this, so a
 * batch has one idempotency fingerprint whichever target a re-run of the import uses. Deterministic: dictionaries
 * are in order of first use, and a column no hit uses is left out.
 */
import type { LogHit } from '../accesslog/LogHit';
import type { HitColumnsRequest } from '../ingest/HitColumnsRequest';
import type { HitBatch } from './HitBatch';

type UtmValues = NonNullable<HitColumnsRequest['dimensions']>[number];

export function batchColumns(batch: HitBatch): HitColumnsRequest {
  const sites = new Dictionary<string>();
  const pages = new Dictionary<string>();
  const visitors = new Dictionary<string>();
  const referrers = new Dictionary<string>();
  const userAgents = new Dictionary<string>();
  const clientIps = new Dictionary<string>();
  const utms = new Dictionary<string>();
  const utmValues: UtmValues[] = [];
  const siteIndex: number[] = [];
  const pageIndex: number[] = [];
  const atMs: number[] = [];
  const count: number[] = [];
  const visitorIndex: number[] = [];
  const referrerIndex: number[] = [];
  const userAgentIndex: number[] = [];
  const clientIpIndex: number[] = [];
  const dimensionIndex: number[] = [];
  for (const hit of batch.hits) {
    siteIndex.push(sites.index(hit.site));
    pageIndex.push(pages.index(hit.page));
    atMs.push(hit.at);
    count.push(hit.count);
    visitorIndex.push(visitors.index(hit.visitor));
    referrerIndex.push(referrers.index(hit.referrer));
    userAgentIndex.push(userAgents.index(hit.userAgent));
    clientIpIndex.push(clientIps.index(hit.clientIp));
    dimensionIndex.push(utmIndex(hit, utms, utmValues));
  }
  return {
    sites: sites.values,
    pages: pages.values,
    ...(sites.values.length > 1 ? { siteIndex } : {}),
    pageIndex,
    atMs,
    count,
    ...column('visitors', visitors, 'visitorIndex', visitorIndex),
    ...column('referrers', referrers, 'referrerIndex', referrerIndex),
    ...column('userAgents', userAgents, 'userAgentIndex', userAgentIndex),
    ...column('clientIps', clientIps, 'clientIpIndex', clientIpIndex),
    ...(utmValues.length > 0 ? { dimensions: utmValues, dimensionIndex } : {}),
  };
}

class Dictionary<T> {
  readonly values: T[] = [];
  private readonly indexes = new Map<T, number>();

  /** The value's index, added on first use; -1 for none. */
  index(value: T | undefined): number {
    if (value === undefined) return -1;
    let index = this.indexes.get(value);
    if (index === undefined) {
      index = this.values.length;
      this.values.push(value);
      this.indexes.set(value, index);
    }
    return index;
  }
}

function utmIndex(hit: LogHit, keys: Dictionary<string>, values: UtmValues[]): number {
  const utm = hit.utm;
  if (utm === undefined) return -1;
  const index = keys.index(JSON.stringify([utm.utmSource, utm.utmMedium, utm.utmCampaign]));
  if (index === values.length) {
    values.push({ utmSource: utm.utmSource, utmMedium: utm.utmMedium, utmCampaign: utm.utmCampaign });
  }
  return index;
}

function column<D extends string, I extends string>(
  dictionaryName: D,
  dictionary: Dictionary<string>,
  indexName: I,
  index: number[],
): Partial<Record<D, string[]> & Record<I, number[]>> {
  if (dictionary.values.length === 0) return {};
  return { [dictionaryName]: dictionary.values, [indexName]: index } as Record<D, string[]> & Record<I, number[]>;
}
