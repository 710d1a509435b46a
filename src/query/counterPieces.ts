/**
 * Splits an interval into the stored UTC counters that sum to it, coarsest first: whole UTC days (a monthly
 * document's `daily.<d>`), whole UTC hours (a daily document's `hourly.<h>`), and minutes (`minute.<h>.<m>`) only
 * where a boundary falls inside an hour. So a Berlin day costs hourly counters of two UTC days, a Kolkata day the
 * minutes of its two boundary hours, and a UTC day one monthly counter: the finest level a boundary needs, no more.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, startOfMonth } from '../time/buckets';

export type CounterPiece =
  /** `daily.<dayOfMonth>` of the monthly document starting at `month`. */
  | { readonly source: 'monthly'; readonly doc: number; readonly dayOfMonth: number }
  /** `hourly.<hour>` of the daily document starting at `doc`. */
  | { readonly source: 'hourly'; readonly doc: number; readonly hour: number }
  /** `minute.<hour>.<minute>` of the daily document starting at `doc`. */
  | { readonly source: 'minute'; readonly doc: number; readonly hour: number; readonly minute: number };

/**
 * The pieces of [start, end), both rounded down to the minute (zone offsets are whole minutes since the
 * 1970s; the few older local-mean-time offsets with seconds are attributed to the minute they fall in).
 */
export function counterPieces(start: number, end: number): CounterPiece[] {
  const pieces: CounterPiece[] = [];
  const stop = floor(end, MINUTE_MS);
  for (let t = floor(start, MINUTE_MS); t < stop;) {
    const day = floor(t, DAY_MS);
    if (t === day && t + DAY_MS <= stop) {
      pieces.push({ source: 'monthly', doc: startOfMonth(t), dayOfMonth: new Date(t).getUTCDate() });
      t += DAY_MS;
    } else if (t % HOUR_MS === 0 && t + HOUR_MS <= stop) {
      pieces.push({ source: 'hourly', doc: day, hour: (t - day) / HOUR_MS });
      t += HOUR_MS;
    } else {
      const hour = Math.floor((t - day) / HOUR_MS);
      pieces.push({ source: 'minute', doc: day, hour, minute: (t - day - hour * HOUR_MS) / MINUTE_MS });
      t += MINUTE_MS;
    }
  }
  return pieces;
}

function floor(t: number, unit: number): number {
  return t - (((t % unit) + unit) % unit);
}
