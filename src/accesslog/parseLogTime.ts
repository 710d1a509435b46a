/**
 * Access-log timestamps to epoch milliseconds. Each keeps the offset the server wrote: 13:55:36 -0700 is
 * 20:55:36 UTC. Hand-written over char codes because Date.parse does not read nginx's `$time_local`, and a
 * regex per line costs more than the whole rest of the line. Anything out of range is `undefined`.
 */

const MONTHS: Readonly<Record<string, number>> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};

/** `$time_local` / Apache `%t`: `10/Oct/2000:13:55:36 -0700` (exactly 26 characters). */
export function parseTimeLocal(text: string): number | undefined {
  if (text.length !== 26 || text.charCodeAt(2) !== 47 || text.charCodeAt(6) !== 47 || text.charCodeAt(11) !== 58) {
    return undefined;
  }
  if (text.charCodeAt(14) !== 58 || text.charCodeAt(17) !== 58 || text.charCodeAt(20) !== 32) return undefined;
  const month = MONTHS[text.slice(3, 6)];
  if (month === undefined) return undefined;
  return assemble(
    digits(text, 7, 4),
    month,
    digits(text, 0, 2),
    digits(text, 12, 2),
    digits(text, 15, 2),
    digits(text, 18, 2),
    0,
    offsetMinutes(text, 21, false),
  );
}

/** `$time_iso8601`: `2000-10-10T13:55:36-07:00` (also `+0000`, `Z`, and fractional seconds). */
export function parseTimeIso8601(text: string): number | undefined {
  if (text.length < 20 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return undefined;
  const t = text.charCodeAt(10);
  if ((t !== 84 && t !== 32) || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined;
  let position = 19;
  let millis = 0;
  if (text.charCodeAt(position) === 46) {
    let end = position + 1;
    while (end < text.length && isDigit(text.charCodeAt(end))) end += 1;
    if (end === position + 1) return undefined;
    millis = Math.floor(Number(`0${text.slice(position, end)}`) * 1000);
    position = end;
  }
  let offset: number | undefined;
  const rest = text.length - position;
  if (rest === 1 && text.charCodeAt(position) === 90) offset = 0;
  else if (rest === 6 && text.charCodeAt(position + 3) === 58) offset = offsetMinutes(text, position, true);
  else if (rest === 5) offset = offsetMinutes(text, position, false);
  return assemble(
    digits(text, 0, 4),
    digits(text, 5, 2) - 1,
    digits(text, 8, 2),
    digits(text, 11, 2),
    digits(text, 14, 2),
    digits(text, 17, 2),
    millis,
    offset,
  );
}

/** `$msec`: seconds since the epoch with a millisecond fraction, `1700000000.123`. */
export function parseMsec(text: string): number | undefined {
  if (!/^\d{1,12}(\.\d{1,3})?$/.test(text)) return undefined;
  return Math.round(Number(text) * 1000);
}

function assemble(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millis: number,
  offset: number | undefined,
): number | undefined {
  // NaN fails every comparison below, so a non-digit anywhere ends up here too.
  if (!(year >= 1970 && year <= 9999 && month >= 0 && month <= 11 && day >= 1 && hour <= 23 && minute <= 59)) {
    return undefined;
  }
  if (!(second <= 60 && offset !== undefined && day <= daysInMonth(year, month))) return undefined;
  // A leap second (:60) is the next second's first instant, as Date.UTC would roll it over.
  return Date.UTC(year, month, day, hour, minute, second, millis) - offset * 60_000;
}

function daysInMonth(year: number, month: number): number {
  if (month === 1) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 3 || month === 5 || month === 8 || month === 10 ? 30 : 31;
}

/** `+hhmm` (or `+hh:mm` when `colon`) starting at `at`, in minutes east of UTC. */
function offsetMinutes(text: string, at: number, colon: boolean): number | undefined {
  const sign = text.charCodeAt(at);
  if (sign !== 43 && sign !== 45) return undefined;
  const hours = digits(text, at + 1, 2);
  const minutes = digits(text, at + (colon ? 4 : 3), 2);
  if (!(hours <= 14 && minutes <= 59)) return undefined;
  const total = hours * 60 + minutes;
  return sign === 45 ? -total : total;
}

function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i += 1) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return Number.NaN;
    value = value * 10 + (code - 48);
  }
  return value;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
