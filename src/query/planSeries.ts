/**
 * Maps a series request to the documents and fields that answer it. Bucket starts follow the request's time
 * zone (zonedBuckets); each bucket is split into stored UTC counters (counterPieces), and the plan lists, per
 * source, the documents those counters live in:
 * `monthly` → monthly documents' `daily`; `hourly` → daily documents' `hourly`; `minute` → daily documents'
 * `minute.<h>` for only the hours needed (a one-hour chart reads 60 counters, not 1,440); `seconds` → the
 * second-level minute documents. In UTC: MINUTE reads minutes, HOUR hours, DAY/WEEK/MONTH monthly documents.
 */
import { addMonths, DAY_MS, floorTo } from '../time/buckets';
import { Granularity } from '../time/Granularity';
import { bucketStartsIn, nextBucketIn } from '../time/zonedBuckets';
import { UTC_ZONE } from '../time/zoneOffset';
import type { SeriesDocumentRange } from '../store/SeriesDocumentRange';
import { counterPieces } from './counterPieces';
import type { CounterPiece } from './counterPieces';
import type { SeriesRequest } from './Series';

export type SeriesSource = 'hourly' | 'minute' | 'monthly' | 'seconds';

export interface SeriesRead {
  readonly source: SeriesSource;
  /** Contiguous runs of documents (by period start) this series needs from the source. */
  readonly ranges: readonly SeriesDocumentRange[];
}

export interface SeriesPlan {
  /** One entry per source needed, in the order monthly, hourly, minute, seconds. */
  readonly reads: readonly SeriesRead[];
  /** For `minute`: the hours of the day whose minutes are needed. */
  readonly hours: ReadonlySet<number>;
  readonly bucketStarts: readonly number[];
  /** End of the last bucket. */
  readonly end: number;
  /** Per bucket, the stored counters it sums (empty for SECOND, which reads `seconds` directly). */
  readonly pieces: readonly (readonly CounterPiece[])[];
}

const SOURCE_ORDER: readonly SeriesSource[] = ['monthly', 'hourly', 'minute', 'seconds'];

export function planSeries(request: SeriesRequest): SeriesPlan {
  const { granularity, from, to, site, page } = request;
  const zone = request.timeZone ?? UTC_ZONE;
  const starts = bucketStartsIn(zone, granularity, from, to);
  const first = starts[0] as number;
  const end = nextBucketIn(zone, granularity, starts[starts.length - 1] as number);
  if (granularity === Granularity.SECOND) {
    const range = { site, page, first: floorTo(Granularity.MINUTE, first), last: floorTo(Granularity.MINUTE, end - 1) };
    return { reads: [{ source: 'seconds', ranges: [range] }], hours: new Set(), bucketStarts: starts, end, pieces: [] };
  }
  const pieces = starts.map((start, i) => counterPieces(start, starts[i + 1] ?? end));
  const docs = new Map<SeriesSource, Set<number>>();
  const hours = new Set<number>();
  for (const bucket of pieces) {
    for (const piece of bucket) {
      let set = docs.get(piece.source);
      if (!set) docs.set(piece.source, (set = new Set()));
      set.add(piece.doc);
      if (piece.source === 'minute') hours.add(piece.hour);
    }
  }
  const reads = SOURCE_ORDER.filter((source) => docs.has(source)).map((source) => ({
    source,
    ranges: runs(
      [...(docs.get(source) as Set<number>)],
      source === 'monthly' ? (t) => addMonths(t, 1) : (t) => t + DAY_MS,
    ).map(([firstDoc, lastDoc]) => ({ site, page, first: firstDoc, last: lastDoc })),
  }));
  return { reads, hours, bucketStarts: starts, end, pieces };
}

/** Sorted period starts grouped into [first, last] runs of consecutive periods. */
function runs(starts: number[], next: (t: number) => number): Array<[number, number]> {
  const sorted = starts.sort((a, b) => a - b);
  const result: Array<[number, number]> = [];
  for (const t of sorted) {
    const last = result[result.length - 1];
    if (last && next(last[1]) === t) last[1] = t;
    else result.push([t, t]);
  }
  return result;
}
