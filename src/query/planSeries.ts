/**
 * Maps a series request to the documents and fields that answer it. Bucket starts follow the request's time
 * zone (zonedBuckets); each bucket is split into stored UTC counters (counterPieces), and the plan lists, per
 * source, the documents those counters live in:
 * `monthly` → monthly documents' `daily`; `hourly` → daily documents' `hourly`; `minute` → daily documents'
 * `minute.<h>` for only the hours needed (a one-hour chart reads 60 counters, not 1,440); `seconds` → the
 * second-level minute documents. In UTC: MINUTE reads minutes, HOUR hours, DAY/WEEK/MONTH monthly documents.
 * A filtered series reads `d.<dimension>.<key>` of monthly and daily documents instead (periodPieces). Visitors, when
 * asked for, add each bucket's stored sketch periods (periodPieces: monthly, daily, minute `v`) to the same sources,
 * and, when some bucket is not such a union, the periods covering the whole range (coveringPeriods). Visit counters,
 * when asked for, come from the same monthly and daily documents, and a minute's from its minute document.
 */
import { floorTo, MINUTE_MS } from '../time/buckets';
import { Granularity } from '../time/Granularity';
import { bucketStartsIn, nextBucketIn } from '../time/zonedBuckets';
import { UTC_ZONE } from '../time/zoneOffset';
import type { ExtraFields } from '../store/statsExtras';
import { counterPieces } from './counterPieces';
import { minutePieceStart, visitsAnswer } from './visitCounts';
import type { CounterPiece } from './counterPieces';
import { coveringPeriods } from './coveringPeriods';
import type { PeriodCover } from './coveringPeriods';
import { DocumentNeeds } from './DocumentNeeds';
import { periodPieces } from './periodPieces';
import type { PeriodPiece } from './periodPieces';
import type { SeriesRequest } from './Series';
import { PERIOD_SOURCE } from './SeriesRead';
import type { SeriesRead } from './SeriesRead';

export interface SeriesPlan {
  /** One entry per source needed, in the order monthly, hourly, minute, seconds. */
  readonly reads: readonly SeriesRead[];
  /** For `minute`: the hours of the day whose minutes are needed. */
  readonly hours: ReadonlySet<number>;
  readonly bucketStarts: readonly number[];
  /** End of the last bucket. */
  readonly end: number;
  /** Per bucket, the stored counters it sums (empty for SECOND, which reads `seconds` directly, and for a filter). */
  readonly pieces: readonly (readonly CounterPiece[])[];
  /** A filtered series: per bucket, the periods whose `d.<dimension>.<key>` it sums. */
  readonly filterPieces?: readonly (readonly PeriodPiece[])[] | undefined;
  /** Per bucket, the periods whose sketches make it up; undefined for a bucket that is no such union. */
  readonly visitorPieces?: readonly (readonly PeriodPiece[] | undefined)[] | undefined;
  /** The periods range visitors are read from when the buckets' own do not make up the range. */
  readonly visitorCover?: PeriodCover | undefined;
}

/** One object for every document: DocumentNeeds merges extras per source once per object. */
const VISIT_FIELDS: ExtraFields = { visits: true };

export function planSeries(request: SeriesRequest): SeriesPlan {
  const { granularity, from, to, filter } = request;
  const zone = request.timeZone ?? UTC_ZONE;
  const starts = bucketStartsIn(zone, granularity, from, to);
  const first = starts[0] as number;
  const end = nextBucketIn(zone, granularity, starts[starts.length - 1] as number);
  const docs = new DocumentNeeds();

  let pieces: CounterPiece[][] = [];
  let filterPieces: PeriodPiece[][] | undefined;
  if (granularity === Granularity.SECOND) {
    for (let t = floorTo(Granularity.MINUTE, first); t < end; t += MINUTE_MS) docs.add('seconds', t);
  } else if (filter) {
    const dimensions = new Map([[filter.dimension, new Set([filter.key])]]);
    filterPieces = starts.map((start, i) => {
      const bucket = periodPieces(start, starts[i + 1] ?? end);
      // parseDimensionFilter refuses such requests before they get here.
      if (bucket === undefined) throw new RangeError('a filtered series needs buckets that are unions of UTC days');
      for (const piece of bucket) docs.add(PERIOD_SOURCE[piece.level], piece.start, { dimensions });
      return bucket;
    });
  } else {
    pieces = starts.map((start, i) => counterPieces(start, starts[i + 1] ?? end));
    for (const bucket of pieces) for (const piece of bucket) docs.addCounter(piece);
    if (request.visits === true) {
      const minutesFrom = request.visitMinutesFrom;
      for (const bucket of pieces) {
        if (!visitsAnswer(bucket, minutesFrom)) continue;
        for (const piece of bucket) {
          // A minute's visit counters live in its minute document (stats.seconds), not in the daily one.
          if (piece.source === 'minute') docs.add('seconds', minutePieceStart(piece), VISIT_FIELDS);
          else docs.add(piece.source, piece.doc, VISIT_FIELDS);
        }
      }
    }
  }

  const visitors = planVisitors(request, starts, end, docs);
  return {
    reads: docs.reads(request.site, request.page),
    hours: docs.hours,
    bucketStarts: starts,
    end,
    pieces,
    filterPieces,
    ...visitors,
  };
}

function planVisitors(
  request: SeriesRequest,
  starts: readonly number[],
  end: number,
  docs: DocumentNeeds,
): Pick<SeriesPlan, 'visitorPieces' | 'visitorCover'> {
  const extra = visitorFields(request);
  if (extra === undefined) return {};
  // Per-value sketches live in daily and monthly documents only; minute documents keep the whole page's.
  const minutesFrom = request.filter ? undefined : request.visitors?.minutesFrom;
  const visitorPieces =
    request.granularity === Granularity.SECOND
      ? starts.map(() => undefined)
      : starts.map((start, i) => periodPieces(start, starts[i + 1] ?? end, minutesFrom));
  const answered = visitorPieces.every((bucket) => bucket !== undefined);
  const visitorCover =
    answered || request.visitors?.pointsOnly === true
      ? undefined
      : coveringPeriods(starts[0] as number, end, minutesFrom);
  for (const bucket of [...visitorPieces, visitorCover?.pieces]) {
    for (const piece of bucket ?? []) docs.add(PERIOD_SOURCE[piece.level], piece.start, extra);
  }
  return { visitorPieces, visitorCover };
}

/** The fields a series' visitors are read from, or undefined when none answer them (or none were asked for). */
export function visitorFields(request: SeriesRequest): ExtraFields | undefined {
  if (request.visitors === undefined) return undefined;
  const { filter } = request;
  if (filter === undefined) return { visitors: true };
  if (!filter.sketched) return undefined;
  return { dimensionVisitors: new Map([[filter.dimension, new Set([filter.key])]]) };
}
