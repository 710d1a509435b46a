/** Splits an instant into the UTC calendar parts the stored documents are keyed by. */
import { HOUR_MS, MINUTE_MS, SECOND_MS, startOfDay, startOfMonth } from './buckets';

export interface HitParts {
  readonly day: number;
  readonly month: number;
  readonly minute: number;
  readonly hourOfDay: number;
  readonly minuteOfHour: number;
  readonly secondOfMinute: number;
  readonly dayOfMonth: number;
}

/**
 * Arithmetic within the day; the calendar (month start, day of month) is looked up once per day and remembered,
 * because ingest splits every hit and a Date per hit showed in the profile.
 */
export function hitParts(ms: number): HitParts {
  const day = startOfDay(ms);
  const inDay = ms - day;
  const calendar = calendarOf(day);
  return {
    day,
    month: calendar.month,
    minute: ms - (inDay % MINUTE_MS),
    hourOfDay: Math.floor(inDay / HOUR_MS),
    minuteOfHour: Math.floor((inDay % HOUR_MS) / MINUTE_MS),
    secondOfMinute: Math.floor((inDay % MINUTE_MS) / SECOND_MS),
    dayOfMonth: calendar.dayOfMonth,
  };
}

interface Calendar {
  readonly month: number;
  readonly dayOfMonth: number;
}

const CALENDAR_CACHE = 4_096;
const CALENDARS = new Map<number, Calendar>();

function calendarOf(day: number): Calendar {
  let calendar = CALENDARS.get(day);
  if (calendar === undefined) {
    calendar = { month: startOfMonth(day), dayOfMonth: new Date(day).getUTCDate() };
    if (CALENDARS.size >= CALENDAR_CACHE) CALENDARS.clear();
    CALENDARS.set(day, calendar);
  }
  return calendar;
}
