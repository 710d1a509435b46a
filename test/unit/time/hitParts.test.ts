import { dayKey, minuteKey, monthKey } from '../../../src/time/buckets';
import { hitParts } from '../../../src/time/hitParts';

const ms = (iso: string) => Date.parse(iso);

describe('hitParts', () => {
  it.each([
    ['2024-02-29T23:59:59.999Z', '2024-02-29', '2024-02-01', 23, 59, 59, 29],
    ['2024-03-01T00:00:00.000Z', '2024-03-01', '2024-03-01', 0, 0, 0, 1],
    ['2025-12-31T23:59:30.500Z', '2025-12-31', '2025-12-01', 23, 59, 30, 31],
    ['2026-01-01T00:00:00.000Z', '2026-01-01', '2026-01-01', 0, 0, 0, 1],
    ['2026-04-30T12:34:56.000Z', '2026-04-30', '2026-04-01', 12, 34, 56, 30],
    ['1969-12-31T23:00:01.000Z', '1969-12-31', '1969-12-01', 23, 0, 1, 31],
  ])('splits %s into its UTC day, month, hour, minute, second and day of month', (iso, day, month, h, m, s, d) => {
    const parts = hitParts(ms(iso));
    expect(parts).toEqual({
      day: ms(`${day}T00:00:00Z`),
      month: ms(`${month}T00:00:00Z`),
      minute: ms(iso) - (((ms(iso) % 60_000) + 60_000) % 60_000),
      hourOfDay: h,
      minuteOfHour: m,
      secondOfMinute: s,
      dayOfMonth: d,
    });
  });

  it.each([
    ['2024-02-29T23:59:59.999Z', '20240229', '202402', '202402292359'],
    ['2025-12-31T00:00:00.000Z', '20251231', '202512', '202512310000'],
    ['1969-12-31T23:05:00.000Z', '19691231', '196912', '196912312305'],
  ])('builds the id keys of %s', (iso, day, month, minute) => {
    expect([dayKey(ms(iso)), monthKey(ms(iso)), minuteKey(ms(iso))]).toEqual([day, month, minute]);
  });
});
