/**
 * Splits an interval into the stored periods it is exactly the union of, coarsest first: whole UTC months (monthly
 * documents), whole UTC days (daily documents) and, from `minutesFrom` on, whole UTC minutes (minute documents of
 * `stats.seconds`). Visitor sketches and dimension counters are kept per such period only, so an interval that is
 * no such union has no exact answer: undefined, never an approximation. Pure.
 */
import { addMonths, DAY_MS, MINUTE_MS, startOfMonth } from '../time/buckets';

export type PeriodLevel = 'month' | 'day' | 'minute';

export interface PeriodPiece {
  readonly level: PeriodLevel;
  /** Start of the period: the document's metadata.date. */
  readonly start: number;
}

/** `minutesFrom`: the first minute whose document may be read; absent or Infinity: none. */
export function periodPieces(start: number, end: number, minutesFrom = Infinity): PeriodPiece[] | undefined {
  const pieces: PeriodPiece[] = [];
  for (let t = start; t < end;) {
    if (t % DAY_MS === 0) {
      if (startOfMonth(t) === t) {
        const next = addMonths(t, 1);
        if (next <= end) {
          pieces.push({ level: 'month', start: t });
          t = next;
          continue;
        }
      }
      if (t + DAY_MS <= end) {
        pieces.push({ level: 'day', start: t });
        t += DAY_MS;
        continue;
      }
    }
    if (t % MINUTE_MS !== 0 || t < minutesFrom || t + MINUTE_MS > end) return undefined;
    pieces.push({ level: 'minute', start: t });
    t += MINUTE_MS;
  }
  return pieces;
}
