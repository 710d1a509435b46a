/**
 * The request a comparison reads: the previous period (as many buckets, ending where the current series starts)
 * or the same buckets a year earlier (the same local wall times one calendar year back). Pure.
 */
import { bucketStartsIn, nextBucketIn, previousBucketIn, sameWallTimeYearBefore } from '../time/zonedBuckets';
import { UTC_ZONE } from '../time/zoneOffset';
import type { SeriesRequest } from './Series';

export type ComparisonKind = 'PREVIOUS_PERIOD' | 'PREVIOUS_YEAR';

export function comparisonRequest(request: SeriesRequest, kind: ComparisonKind): SeriesRequest {
  const zone = request.timeZone ?? UTC_ZONE;
  const starts = bucketStartsIn(zone, request.granularity, request.from, request.to);
  const first = starts[0] as number;
  const end = nextBucketIn(zone, request.granularity, starts[starts.length - 1] as number);
  if (kind === 'PREVIOUS_YEAR') {
    return { ...request, from: sameWallTimeYearBefore(zone, first), to: sameWallTimeYearBefore(zone, end) };
  }
  let from = first;
  for (let i = 0; i < starts.length; i++) from = previousBucketIn(zone, request.granularity, from);
  return { ...request, from, to: first };
}
