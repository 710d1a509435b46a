/**
 * A half-open span [from, to) in words, in UTC (the dashboard's buckets and every stored period are UTC): whole
 * UTC days as days with the last one inclusive ("21 Nov – 22 Nov UTC"), anything else to the minute
 * ("22 Nov 14:03 – 15:04 UTC").
 */
const DAY_MS = 86_400_000;
const DATE = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short' });
const DATE_YEAR = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const TIME = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

export function formatSpan(from: number, to: number): string {
  const sameYear = new Date(from).getUTCFullYear() === new Date(to - 1).getUTCFullYear();
  const date = (t: number): string => (sameYear ? DATE : DATE_YEAR).format(t);
  if (from % DAY_MS === 0 && to % DAY_MS === 0) {
    const last = to - DAY_MS;
    return last <= from ? `${date(from)} UTC` : `${date(from)} – ${date(last)} UTC`;
  }
  const sameDay = Math.floor(from / DAY_MS) === Math.floor((to - 1) / DAY_MS);
  const end = sameDay ? TIME.format(to) : `${date(to)} ${TIME.format(to)}`;
  return `${date(from)} ${TIME.format(from)} – ${end} UTC`;
}

/** The instant as a time of day in UTC, for "as of 14:03:10 UTC". */
export function formatClock(t: number): string {
  return `${new Date(t).toISOString().slice(11, 19)} UTC`;
}
