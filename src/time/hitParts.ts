/** Splits an instant into the UTC calendar parts the stored documents are keyed by. */
import { MINUTE_MS, startOfDay, startOfMonth } from './buckets';

export interface HitParts {
  readonly day: number;
  readonly month: number;
  readonly minute: number;
  readonly hourOfDay: number;
  readonly minuteOfHour: number;
  readonly secondOfMinute: number;
  readonly dayOfMonth: number;
}

export function hitParts(ms: number): HitParts {
  const date = new Date(ms);
  return {
    day: startOfDay(ms),
    month: startOfMonth(ms),
    minute: ms - (((ms % MINUTE_MS) + MINUTE_MS) % MINUTE_MS),
    hourOfDay: date.getUTCHours(),
    minuteOfHour: date.getUTCMinutes(),
    secondOfMinute: date.getUTCSeconds(),
    dayOfMonth: date.getUTCDate(),
  };
}
