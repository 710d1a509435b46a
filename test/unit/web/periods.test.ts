import {
  addDays,
  dayCount,
  dayRangeInstants,
  localDay,
  parseDayRange,
  periodGranularities,
  presetDays,
  startOfLocalDay,
} from '../../../web/dashboard/periods';
import type { CalendarPresetId } from '../../../web/dashboard/periods';

describe('calendar presets', () => {
  it.each<[CalendarPresetId, string, string, string]>([
    ['today', '2026-11-26', '2026-11-26', '2026-11-26'],
    ['yesterday', '2026-11-26', '2026-11-25', '2026-11-25'],
    ['yesterday', '2026-03-01', '2026-02-28', '2026-02-28'],
    ['yesterday', '2024-03-01', '2024-02-29', '2024-02-29'],
    ['yesterday', '2027-01-01', '2026-12-31', '2026-12-31'],
    ['mtd', '2026-11-26', '2026-11-01', '2026-11-26'],
    ['mtd', '2026-11-01', '2026-11-01', '2026-11-01'],
    ['lastMonth', '2026-11-26', '2026-10-01', '2026-10-31'],
    ['lastMonth', '2026-03-31', '2026-02-01', '2026-02-28'],
    ['lastMonth', '2024-03-15', '2024-02-01', '2024-02-29'],
    ['lastMonth', '2026-01-10', '2025-12-01', '2025-12-31'],
    ['lastMonth', '2026-05-31', '2026-04-01', '2026-04-30'],
    ['ytd', '2026-11-26', '2026-01-01', '2026-11-26'],
    ['ytd', '2026-01-01', '2026-01-01', '2026-01-01'],
    ['12mo', '2026-11-26', '2025-12-01', '2026-11-26'],
    ['12mo', '2026-12-31', '2026-01-01', '2026-12-31'],
    ['12mo', '2024-02-29', '2023-03-01', '2024-02-29'],
  ])('%s on %s is %s to %s', (id, today, first, last) => {
    expect(presetDays(id, today)).toEqual({ first, last });
  });

  it('runs all time from the first stored day to today, and has none without one', () => {
    expect(presetDays('all', '2026-11-26', '2025-03-29')).toEqual({ first: '2025-03-29', last: '2026-11-26' });
    expect(presetDays('all', '2026-11-26', '2026-11-26')).toEqual({ first: '2026-11-26', last: '2026-11-26' });
    expect(presetDays('all', '2026-11-26', '2026-12-02')).toEqual({ first: '2026-11-26', last: '2026-11-26' });
    expect(presetDays('all', '2026-11-26')).toBeUndefined();
  });
});

describe('custom ranges', () => {
  it.each<[string | null, string | null, { first: string; last: string } | undefined]>([
    ['2025-01-01', '2025-03-31', { first: '2025-01-01', last: '2025-03-31' }],
    ['2025-02-03', '2025-02-03', { first: '2025-02-03', last: '2025-02-03' }],
    ['2024-02-29', '2024-03-01', { first: '2024-02-29', last: '2024-03-01' }],
    ['2025-02-29', '2025-03-01', undefined],
    ['2025-04-31', '2025-05-01', undefined],
    ['2025-03-02', '2025-03-01', undefined],
    ['2025-3-1', '2025-03-02', undefined],
    ['0999-12-31', '2025-01-01', undefined],
    ['2025-01-01', null, undefined],
    [null, '2025-01-01', undefined],
    ['2025-01-01T00:00:00Z', '2025-01-02', undefined],
  ])('from %s to %s parses as %j', (from, to, expected) => {
    expect(parseDayRange(from, to)).toEqual(expected);
  });

  it.each([
    ['2025-01-01', '2025-01-01', 1],
    ['2025-01-01', '2025-12-31', 365],
    ['2024-01-01', '2024-12-31', 366],
    ['2024-02-28', '2024-03-01', 3],
    ['2023-02-28', '2023-03-01', 2],
  ])('%s to %s has %i days', (first, last, days) => {
    expect(dayCount({ first, last })).toBe(days);
  });

  it.each([
    ['2024-12-31', 1, '2025-01-01'],
    ['2024-02-28', 1, '2024-02-29'],
    ['2024-03-01', -1, '2024-02-29'],
    ['2023-03-01', -1, '2023-02-28'],
  ])('%s plus %i days is %s', (day, days, expected) => {
    expect(addDays(day, days)).toBe(expected);
  });
});

describe('local days in a time zone', () => {
  it.each([
    ['UTC', Date.UTC(2026, 10, 26, 23, 59, 59, 999), '2026-11-26'],
    ['UTC', Date.UTC(2026, 10, 27), '2026-11-27'],
    ['Europe/Berlin', Date.UTC(2026, 11, 31, 23, 0), '2027-01-01'],
    ['Europe/Berlin', Date.UTC(2026, 11, 31, 22, 59), '2026-12-31'],
    ['America/Los_Angeles', Date.UTC(2026, 0, 1, 7, 59), '2025-12-31'],
    ['Asia/Kathmandu', Date.UTC(2026, 1, 28, 18, 15), '2026-03-01'],
  ])('in %s, instant %d falls on %s', (zone, now, day) => {
    expect(localDay(now, zone)).toBe(day);
  });

  it.each([
    ['UTC', '2026-11-26', '2026-11-26T00:00:00.000Z'],
    ['Europe/Berlin', '2026-01-15', '2026-01-14T23:00:00.000Z'],
    ['Europe/Berlin', '2026-07-15', '2026-07-14T22:00:00.000Z'],
    // Spring forward at 02:00 and fall back at 03:00: both days still begin at midnight.
    ['Europe/Berlin', '2026-03-29', '2026-03-28T23:00:00.000Z'],
    ['Europe/Berlin', '2026-10-25', '2026-10-24T22:00:00.000Z'],
    ['America/New_York', '2026-03-08', '2026-03-08T05:00:00.000Z'],
    ['America/New_York', '2026-11-01', '2026-11-01T04:00:00.000Z'],
    // Santiago springs from 00:00 to 01:00: the day begins at 01:00 local (04:00Z).
    ['America/Santiago', '2026-09-06', '2026-09-06T04:00:00.000Z'],
    ['Asia/Kathmandu', '2026-03-01', '2026-02-28T18:15:00.000Z'],
    ['Pacific/Kiritimati', '2024-02-29', '2024-02-28T10:00:00.000Z'],
  ])('in %s, %s begins at %s', (zone, day, expected) => {
    expect(new Date(startOfLocalDay(day, zone)).toISOString()).toBe(expected);
  });

  it.each([
    ['UTC', '2025-01-01', '2025-12-31', '2025-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['Europe/Berlin', '2026-03-29', '2026-03-29', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z'],
    ['Europe/Berlin', '2026-10-25', '2026-10-25', '2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z'],
    ['UTC', '2024-02-29', '2024-02-29', '2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
  ])('in %s, %s to %s is [%s, %s)', (zone, first, last, from, to) => {
    expect(dayRangeInstants({ first, last }, zone)).toEqual({ from, to });
  });
});

describe('granularity follows the span', () => {
  it.each([
    [1, ['HOUR', 'MINUTE', 'DAY']],
    [2, ['HOUR', 'MINUTE', 'DAY']],
    [3, ['DAY', 'HOUR']],
    [14, ['DAY', 'HOUR', 'WEEK']],
    [31, ['DAY', 'HOUR', 'WEEK']],
    [32, ['DAY', 'WEEK']],
    [90, ['DAY', 'WEEK', 'MONTH']],
    [366, ['DAY', 'WEEK', 'MONTH']],
    [400, ['DAY', 'WEEK', 'MONTH']],
    [401, ['MONTH', 'DAY', 'WEEK']],
    [4000, ['MONTH', 'WEEK']],
  ])('%i days: %j', (days, expected) => {
    expect(periodGranularities(days)).toEqual(expected);
  });

  it('keeps every offered granularity within 10,000 buckets (QUERY_MAX_BUCKETS) up to 100 years', () => {
    const bucketDays = { SECOND: 1 / 86_400, MINUTE: 1 / 1440, HOUR: 1 / 24, DAY: 1, WEEK: 7, MONTH: 28 };
    for (let days = 1; days <= 36_600; days += days < 500 ? 1 : 97) {
      for (const granularity of periodGranularities(days)) {
        expect(Math.ceil(days / bucketDays[granularity]) + 1).toBeLessThanOrEqual(10_000);
      }
    }
  });
});
