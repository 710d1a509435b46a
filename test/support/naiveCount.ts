/**
 * An independent, deliberately simple recount of hits per bucket using Date's calendar methods only:
 * the oracle the property tests compare the pre-aggregated series against.
 */
import type { Hit } from '../../src/domain/Hit';
import { Granularity } from '../../src/time/Granularity';

export function naiveBucketStart(granularity: Granularity, at: number): number {
  const d = new Date(at);
  const [y, m, day, h, min, s] = [
    d.getUTCFullYear(),
    d.getUTCMonth(),
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
  ];
  switch (granularity) {
    case Granularity.SECOND:
      return Date.UTC(y, m, day, h, min, s);
    case Granularity.MINUTE:
      return Date.UTC(y, m, day, h, min);
    case Granularity.HOUR:
      return Date.UTC(y, m, day, h);
    case Granularity.DAY:
      return Date.UTC(y, m, day);
    case Granularity.WEEK: {
      const sinceMonday = (d.getUTCDay() + 6) % 7;
      return Date.UTC(y, m, day - sinceMonday);
    }
    case Granularity.MONTH:
      return Date.UTC(y, m, 1);
  }
}

/** Hits per bucket start for one page, over the buckets the series returned. */
export function naiveSeries(
  hits: readonly Hit[],
  site: string,
  page: string,
  granularity: Granularity,
  bucketStarts: readonly number[],
): number[] {
  const counts = new Map<number, number>();
  for (const hit of hits) {
    if (hit.site !== site || hit.page !== page) continue;
    const start = naiveBucketStart(granularity, hit.at);
    counts.set(start, (counts.get(start) ?? 0) + hit.count);
  }
  return bucketStarts.map((t) => counts.get(t) ?? 0);
}
