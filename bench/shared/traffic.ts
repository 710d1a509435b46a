/** The simulated site: Zipf-popular pages, hits spread uniformly over a time window ending at `now`. */
import type { Random } from './random';
import { seededRandom, unitAt, zipfCdf, zipfPick, zipfSampler } from './random';

export const BENCH_SITE = 'bench.example';

export interface BenchHit {
  readonly site: string;
  readonly page: string;
  /** Epoch ms. */
  readonly at: number;
}

export interface TrafficShape {
  readonly pages: number;
  /** Zipf exponent; 1 is the classic web shape. */
  readonly zipfS: number;
  /** Hits fall in [now - spanMs, now). */
  readonly spanMs: number;
  readonly now: number;
  readonly seed: number;
}

export function pagePath(rank: number): string {
  return `/articles/${String(rank).padStart(4, '0')}.html`;
}

export function generateHits(
  shape: TrafficShape,
  count: number,
  random: Random = seededRandom(shape.seed),
): BenchHit[] {
  const rank = zipfSampler(shape.pages, shape.zipfS, random);
  const hits: BenchHit[] = [];
  for (let i = 0; i < count; i++) {
    hits.push({ site: BENCH_SITE, page: pagePath(rank()), at: shape.now - 1 - Math.floor(random() * shape.spanMs) });
  }
  return hits;
}

/**
 * `total` hits in time order, each computed on demand from its index: the ingest runs replay a live site's
 * stream without holding (or sorting) an array that grows with the run. Hit i falls in the i-th of `total`
 * equal slices of the window, at a random instant inside it.
 */
export class OrderedTraffic {
  private readonly cdf: number[];

  constructor(
    private readonly shape: TrafficShape,
    readonly total: number,
  ) {
    this.cdf = zipfCdf(shape.pages, shape.zipfS);
  }

  hit(index: number): BenchHit {
    const { spanMs, now, seed } = this.shape;
    const slice = spanMs / this.total;
    const at = now - spanMs + Math.floor((index + unitAt(seed, 2 * index)) * slice);
    return {
      site: BENCH_SITE,
      page: pagePath(zipfPick(this.cdf, unitAt(seed, 2 * index + 1))),
      at: Math.min(at, now - 1),
    };
  }
}

/**
 * Hits `from` to `to` (exclusive) of the traffic as recordHitColumns' columns; `siteIndex` only when the hits
 * name more than one site.
 */
export function hitColumns(
  traffic: OrderedTraffic,
  from: number,
  to: number,
): { sites: string[]; pages: string[]; siteIndex?: number[]; pageIndex: number[]; atMs: number[] } {
  const sites = new Map<string, number>();
  const pages = new Map<string, number>();
  const columns = { siteIndex: [] as number[], pageIndex: [] as number[], atMs: [] as number[] };
  const indexOf = (dictionary: Map<string, number>, value: string): number => {
    let index = dictionary.get(value);
    if (index === undefined) dictionary.set(value, (index = dictionary.size));
    return index;
  };
  for (let h = from; h < to; h++) {
    const hit = traffic.hit(h);
    columns.siteIndex.push(indexOf(sites, hit.site));
    columns.pageIndex.push(indexOf(pages, hit.page));
    columns.atMs.push(hit.at);
  }
  const { siteIndex, ...rest } = columns;
  return { sites: [...sites.keys()], pages: [...pages.keys()], ...(sites.size > 1 ? { siteIndex } : {}), ...rest };
}
