/**
 * Maps a granularity to the documents and fields that answer it:
 * MINUTE → daily documents, only `minute.<h>` of the hours the range touches (a one-hour chart reads 60
 * counters, not 1,440); HOUR → daily documents' `hourly`; DAY, WEEK, MONTH → monthly documents' `daily`;
 * SECOND → the second-level minute documents' `seconds`.
 */
import { bucketStarts, floorTo, HOUR_MS, nextBucket, startOfDay, startOfMonth } from '../time/buckets';
import { Granularity } from '../time/Granularity';
import type { SeriesDocumentRange } from '../store/SeriesDocumentRange';
import type { SeriesRequest } from './Series';

export type SeriesSource = 'hourly' | 'minute' | 'monthly' | 'seconds';

export interface SeriesPlan {
  readonly source: SeriesSource;
  readonly range: SeriesDocumentRange;
  /** For `minute`: the hours of the day whose minutes are needed. */
  readonly hours: ReadonlySet<number>;
  readonly bucketStarts: readonly number[];
  /** End of the last bucket. */
  readonly end: number;
}

export function planSeries(request: SeriesRequest): SeriesPlan {
  const { granularity, from, to, site, page } = request;
  const starts = bucketStarts(granularity, from, to);
  const first = starts[0] as number;
  const end = nextBucket(granularity, starts[starts.length - 1] as number);
  switch (granularity) {
    case Granularity.MINUTE:
    case Granularity.HOUR: {
      const range = { site, page, first: startOfDay(first), last: startOfDay(end - 1) };
      return {
        source: granularity === Granularity.HOUR ? 'hourly' : 'minute',
        range,
        hours: granularity === Granularity.MINUTE ? hoursTouched(first, end) : new Set(),
        bucketStarts: starts,
        end,
      };
    }
    case Granularity.DAY:
    case Granularity.WEEK:
    case Granularity.MONTH:
      return {
        source: 'monthly',
        range: { site, page, first: startOfMonth(first), last: startOfMonth(end - 1) },
        hours: new Set(),
        bucketStarts: starts,
        end,
      };
    case Granularity.SECOND:
      return {
        source: 'seconds',
        range: {
          site,
          page,
          first: floorTo(Granularity.MINUTE, first),
          last: floorTo(Granularity.MINUTE, end - 1),
        },
        hours: new Set(),
        bucketStarts: starts,
        end,
      };
  }
}

/** The hours of the day (0–23) that [from, end) overlaps; all 24 once it spans a day. */
export function hoursTouched(from: number, end: number): Set<number> {
  const hours = new Set<number>();
  for (let t = floorTo(Granularity.HOUR, from); t < end && hours.size < 24; t += HOUR_MS) {
    hours.add(Math.floor((t - startOfDay(t)) / HOUR_MS));
  }
  return hours;
}
