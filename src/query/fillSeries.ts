/**
 * Turns fetched documents into a dense series: one point per bucket, zero where no document or counter
 * exists (sparse documents and days without hits read as zeros).
 */
import { DAY_MS, floorTo, HOUR_MS, MINUTE_MS, nextBucket, SECOND_MS, startOfDay, startOfMonth } from '../time/buckets';
import { Granularity } from '../time/Granularity';
import type { DocumentLookup } from './DocumentLookup';
import type { SeriesPlan } from './planSeries';
import type { Series, SeriesPoint, SeriesRequest } from './Series';

export function fillSeries(request: SeriesRequest, plan: SeriesPlan, lookup: DocumentLookup): Series {
  const count = counter(request.granularity, lookup);
  const points: SeriesPoint[] = plan.bucketStarts.map((t) => ({ t, hits: count(t) }));
  const total = points.reduce((sum, point) => sum + point.hits, 0);
  return { request, from: plan.bucketStarts[0] as number, to: plan.end, total, points };
}

function counter(granularity: Granularity, lookup: DocumentLookup): (bucketStart: number) => number {
  const dayCount = (day: number): number => {
    const doc = lookup.monthly(startOfMonth(day));
    return number(doc?.daily?.[new Date(day).getUTCDate()]);
  };
  switch (granularity) {
    case Granularity.MINUTE:
      return (t) => {
        const day = startOfDay(t);
        const hour = Math.floor((t - day) / HOUR_MS);
        const minute = Math.floor((t - day - hour * HOUR_MS) / MINUTE_MS);
        return number(lookup.daily(day)?.minute?.[hour]?.[minute]);
      };
    case Granularity.HOUR:
      return (t) => {
        const day = startOfDay(t);
        return number(lookup.daily(day)?.hourly?.[Math.floor((t - day) / HOUR_MS)]);
      };
    case Granularity.DAY:
      return dayCount;
    case Granularity.WEEK:
    case Granularity.MONTH:
      return (t) => {
        let sum = 0;
        for (let day = t, end = nextBucket(granularity, t); day < end; day += DAY_MS) sum += dayCount(day);
        return sum;
      };
    case Granularity.SECOND:
      return (t) => {
        const minute = floorTo(Granularity.MINUTE, t);
        return number(lookup.seconds?.(minute)?.seconds?.[(t - minute) / SECOND_MS]);
      };
  }
}

/** Counters are numbers; a Long from a huge counter or a missing field still reads sanely. */
function number(value: unknown): number {
  if (typeof value === 'number') return value;
  if (value === undefined || value === null) return 0;
  return Number(value);
}
