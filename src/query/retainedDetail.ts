/**
 * Which stored counters and sketch periods retention has dropped (issue 30): a series bucket that needs one of them
 * has no answer, so its hits (or visitors) are null, never the zero a missing document would read as.
 * - `monthly` counters and month sketches: always kept.
 * - `hourly` counters and day sketches (a daily document): dropped before `daysFrom`.
 * - `minute` counters (a daily document's `minute`): dropped before `minutesFrom`.
 * - minute sketches and seconds (`stats.seconds`): dropped before `minutesFrom`.
 * Pure.
 */
import { startOfDay } from '../time/buckets';
import type { RetentionCutoffs } from '../time/retentionCutoffs';
import type { CounterPiece } from './counterPieces';
import { periodPieces } from './periodPieces';
import type { PeriodPiece } from './periodPieces';

export function counterPieceDropped(piece: CounterPiece, cutoffs: RetentionCutoffs): boolean {
  switch (piece.source) {
    case 'monthly':
      return false;
    case 'hourly':
      return piece.doc < cutoffs.daysFrom;
    case 'minute':
      return piece.doc < cutoffs.minutesFrom;
  }
}

export function periodPieceDropped(piece: PeriodPiece, cutoffs: RetentionCutoffs): boolean {
  switch (piece.level) {
    case 'month':
      return false;
    case 'day':
      return piece.start < cutoffs.daysFrom;
    case 'minute':
      return startOfDay(piece.start) < cutoffs.minutesFrom;
  }
}

/** Whether the sketch periods of a span of whole UTC days (months, then days) include one retention dropped. */
export function spanDropped(from: number, to: number, cutoffs: RetentionCutoffs): boolean {
  return (periodPieces(from, to) ?? []).some((piece) => periodPieceDropped(piece, cutoffs));
}

/** A second-level bucket (SECOND series) lives in the minute document of its UTC day. */
export function secondDropped(t: number, cutoffs: RetentionCutoffs): boolean {
  return startOfDay(t) < cutoffs.minutesFrom;
}
