/**
 * The stored periods a span of whole UTC days is read from (periodPieces), with one more month where that is exact:
 * a span that starts on or before the first day of its last month and ends after every instant a stored hit can
 * have (`now` plus the clock skew ingest accepts) reads that month's document, not its days'. Nothing is stored
 * between the span's end and the month's, so the month document holds exactly the span's days, and one sketch of
 * a month (a union of its days', at the same precision) replaces up to 30: "the last 30 days" through today reads
 * this month's document and the days before it. Pure.
 */
import { addMonths, DAY_MS, startOfMonth } from '../time/buckets';
import { periodPieces } from './periodPieces';
import type { PeriodPiece } from './periodPieces';

export interface HitHorizon {
  readonly now: number;
  /** How far ahead of `now` a stored hit's `at` may be (INGEST_MAX_CLOCK_SKEW_MS). */
  readonly maxClockSkewMs: number;
}

/** Undefined where the span is not whole UTC days, as periodPieces. */
export function spanPieces(from: number, to: number, horizon: HitHorizon | undefined): PeriodPiece[] | undefined {
  if (from % DAY_MS !== 0 || to % DAY_MS !== 0) return undefined;
  const lastMonth = startOfMonth(to);
  const readsLastMonth =
    horizon !== undefined && from <= lastMonth && lastMonth < to && to > horizon.now + horizon.maxClockSkewMs;
  return periodPieces(from, readsLastMonth ? addMonths(lastMonth, 1) : to);
}
