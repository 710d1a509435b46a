import { bucketCount, bucketStarts, dayKey, floorTo, minuteKey, monthKey, nextBucket } from '../../../src/time/buckets';
import { Granularity } from '../../../src/time/Granularity';
import { hitParts } from '../../../src/time/hitParts';

const ms = (iso: string): number => Date.parse(iso);
const iso = (t: number): string => new Date(t).toISOString();

describe('floorTo', () => {
  it.each([
    [Granularity.SECOND, '2024-02-29T23:59:59.999Z', '2024-02-29T23:59:59.000Z'],
    [Granularity.MINUTE, '2024-02-29T23:59:59.999Z', '2024-02-29T23:59:00.000Z'],
    [Granularity.HOUR, '2024-02-29T23:59:59.999Z', '2024-02-29T23:00:00.000Z'],
    [Granularity.DAY, '2024-02-29T23:59:59.999Z', '2024-02-29T00:00:00.000Z'],
    [Granularity.DAY, '2024-03-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    [Granularity.MONTH, '2024-02-29T12:00:00.000Z', '2024-02-01T00:00:00.000Z'],
    [Granularity.MONTH, '2025-12-31T23:59:59.999Z', '2025-12-01T00:00:00.000Z'],
    // ISO weeks start on Monday: 2026-01-01 is a Thursday, its week began Monday 2025-12-29.
    [Granularity.WEEK, '2026-01-01T10:00:00.000Z', '2025-12-29T00:00:00.000Z'],
    [Granularity.WEEK, '2025-12-29T00:00:00.000Z', '2025-12-29T00:00:00.000Z'],
    [Granularity.WEEK, '2025-12-28T23:59:59.999Z', '2025-12-22T00:00:00.000Z'],
    [Granularity.WEEK, '1970-01-01T00:00:00.000Z', '1969-12-29T00:00:00.000Z'],
    [Granularity.WEEK, '2024-03-03T23:00:00.000Z', '2024-02-26T00:00:00.000Z'],
  ])('rounds %s %s down to %s', (granularity, at, expected) => {
    expect(iso(floorTo(granularity, ms(at)))).toBe(expected);
  });
});

describe('nextBucket', () => {
  it.each([
    [Granularity.MONTH, '2024-01-01T00:00:00.000Z', '2024-02-01T00:00:00.000Z'],
    [Granularity.MONTH, '2024-12-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'],
    [Granularity.DAY, '2024-02-28T00:00:00.000Z', '2024-02-29T00:00:00.000Z'],
    [Granularity.DAY, '2023-02-28T00:00:00.000Z', '2023-03-01T00:00:00.000Z'],
    [Granularity.WEEK, '2025-12-29T00:00:00.000Z', '2026-01-05T00:00:00.000Z'],
    [Granularity.HOUR, '2025-12-31T23:00:00.000Z', '2026-01-01T00:00:00.000Z'],
  ])('after a %s bucket at %s comes %s', (granularity, start, expected) => {
    expect(iso(nextBucket(granularity, ms(start)))).toBe(expected);
  });
});

describe('bucketStarts', () => {
  it.each([
    // [granularity, from, to, first, last, count]
    [
      Granularity.MINUTE,
      '2025-12-31T23:58:30Z',
      '2026-01-01T00:01:00Z',
      '2025-12-31T23:58:00.000Z',
      '2026-01-01T00:00:00.000Z',
      3,
    ],
    [
      Granularity.HOUR,
      '2024-02-28T22:00:00Z',
      '2024-03-01T01:00:00Z',
      '2024-02-28T22:00:00.000Z',
      '2024-03-01T00:00:00.000Z',
      27,
    ],
    [
      Granularity.DAY,
      '2024-02-27T12:00:00Z',
      '2024-03-02T00:00:00Z',
      '2024-02-27T00:00:00.000Z',
      '2024-03-01T00:00:00.000Z',
      4,
    ],
    [
      Granularity.DAY,
      '2024-02-27T12:00:00Z',
      '2024-03-02T00:00:00.001Z',
      '2024-02-27T00:00:00.000Z',
      '2024-03-02T00:00:00.000Z',
      5,
    ],
    [
      Granularity.WEEK,
      '2025-12-24T00:00:00Z',
      '2026-01-06T00:00:00Z',
      '2025-12-22T00:00:00.000Z',
      '2026-01-05T00:00:00.000Z',
      3,
    ],
    [
      Granularity.MONTH,
      '2023-11-15T00:00:00Z',
      '2024-03-01T00:00:00Z',
      '2023-11-01T00:00:00.000Z',
      '2024-02-01T00:00:00.000Z',
      4,
    ],
    [
      Granularity.SECOND,
      '2026-01-01T00:00:58.500Z',
      '2026-01-01T00:01:01Z',
      '2026-01-01T00:00:58.000Z',
      '2026-01-01T00:01:00.000Z',
      3,
    ],
  ])('%s buckets of [%s, %s) run from %s to %s (%d of them)', (granularity, from, to, first, last, count) => {
    const starts = bucketStarts(granularity, ms(from), ms(to));
    expect(iso(starts[0] as number)).toBe(first);
    expect(iso(starts[starts.length - 1] as number)).toBe(last);
    expect(starts).toHaveLength(count);
    expect(bucketCount(granularity, ms(from), ms(to))).toBe(count);
  });

  it('is empty for an empty range', () => {
    expect(bucketStarts(Granularity.DAY, ms('2024-01-02T00:00:00Z'), ms('2024-01-02T00:00:00Z'))).toEqual([]);
    expect(bucketCount(Granularity.DAY, ms('2024-01-02T00:00:00Z'), ms('2024-01-01T00:00:00Z'))).toBe(0);
  });
});

describe('period keys', () => {
  it.each([
    ['2024-02-29T23:59:59.999Z', '20240229', '202402', '202402292359'],
    ['2025-12-31T00:00:00.000Z', '20251231', '202512', '202512310000'],
    ['1970-01-01T00:00:00.000Z', '19700101', '197001', '197001010000'],
  ])('%s is day %s, month %s, minute %s', (at, day, month, minute) => {
    expect(dayKey(ms(at))).toBe(day);
    expect(monthKey(ms(at))).toBe(month);
    expect(minuteKey(ms(at))).toBe(minute);
  });
});

describe('hitParts', () => {
  it('splits an instant into the UTC parts documents are keyed by', () => {
    expect(hitParts(ms('2024-02-29T23:59:58.250Z'))).toEqual({
      day: ms('2024-02-29T00:00:00Z'),
      month: ms('2024-02-01T00:00:00Z'),
      minute: ms('2024-02-29T23:59:00Z'),
      hourOfDay: 23,
      minuteOfHour: 59,
      secondOfMinute: 58,
      dayOfMonth: 29,
    });
  });
});
