/**
 * The smallest union of stored sketch periods that covers [from, to): the interval itself when it is one (see
 * periodPieces), else widened at each end only as far as it must be: to the minute where minute documents are kept
 * (from `minutesFrom` on), to the UTC day elsewhere. Range visitors over such a cover are exact for the cover, which
 * the answer states, rather than an estimate of the range nobody could check. Pure.
 */
import { DAY_MS, MINUTE_MS } from '../time/buckets';
import { periodPieces } from './periodPieces';
import type { PeriodPiece } from './periodPieces';

export interface PeriodCover {
  readonly from: number;
  readonly to: number;
  readonly pieces: readonly PeriodPiece[];
}

export function coveringPeriods(from: number, to: number, minutesFrom = Infinity): PeriodCover {
  const minuteStart = floor(from, MINUTE_MS);
  const start = from % DAY_MS === 0 ? from : minuteStart >= minutesFrom ? minuteStart : floor(from, DAY_MS);
  // The last, partial day reads minutes only if all of them, from where the cover enters that day, are kept.
  const lastDay = floor(to, DAY_MS);
  const end = to % DAY_MS === 0 ? to : Math.max(start, lastDay) >= minutesFrom ? ceil(to, MINUTE_MS) : lastDay + DAY_MS;
  const pieces = periodPieces(start, end, minutesFrom);
  // Unreachable: both ends are now day boundaries or kept minutes, and so is everything between them.
  if (pieces === undefined) throw new Error(`no stored periods cover [${start}, ${end})`);
  return { from: start, to: end, pieces };
}

function floor(t: number, unit: number): number {
  return t - (((t % unit) + unit) % unit);
}

function ceil(t: number, unit: number): number {
  const down = floor(t, unit);
  return down === t ? t : down + unit;
}
