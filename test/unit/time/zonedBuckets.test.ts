import { Granularity } from '../../../src/time/Granularity';
import {
  bucketStartsIn,
  floorIn,
  nextBucketIn,
  previousBucketIn,
  sameWallTimeYearBefore,
} from '../../../src/time/zonedBuckets';
import { instantOfWall, isKnownTimeZone, offsetAt } from '../../../src/time/zoneOffset';

const ms = (iso: string): number => Date.parse(iso);
const iso = (t: number): string => new Date(t).toISOString();
const HOUR = 3_600_000;
const minutes = (offsetMs: number): number => offsetMs / 60_000;

/** Every DST transition of 2026 in the zones the issue names: the instant, the offset before and after (minutes). */
const TRANSITIONS_2026 = [
  ['Europe/Berlin', '2026-03-29T01:00:00Z', 60, 120],
  ['Europe/Berlin', '2026-10-25T01:00:00Z', 120, 60],
  ['America/Los_Angeles', '2026-03-08T10:00:00Z', -480, -420],
  ['America/Los_Angeles', '2026-11-01T09:00:00Z', -420, -480],
  ['Australia/Lord_Howe', '2026-04-04T15:00:00Z', 660, 630],
  ['Australia/Lord_Howe', '2026-10-03T15:30:00Z', 630, 660],
] as const;

describe('offsetAt', () => {
  it.each(TRANSITIONS_2026)('%s changes offset at %s from %d to %d minutes', (zone, at, before, after) => {
    expect(minutes(offsetAt(zone, ms(at) - 1))).toBe(before);
    expect(minutes(offsetAt(zone, ms(at)))).toBe(after);
  });

  it.each([
    ['Asia/Kolkata', 330],
    ['Asia/Kathmandu', 345],
  ])('%s stays at %d minutes all through 2026', (zone, offset) => {
    for (let t = ms('2026-01-01T00:00:00Z'); t < ms('2027-01-01T00:00:00Z'); t += 7 * 24 * HOUR) {
      expect(minutes(offsetAt(zone, t))).toBe(offset);
    }
  });

  it('knows IANA names and refuses others', () => {
    expect(isKnownTimeZone('Europe/Berlin')).toBe(true);
    expect(isKnownTimeZone('UTC')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isKnownTimeZone('+05:30')).toBe(false);
  });
});

describe('instantOfWall', () => {
  it.each([
    // A wall time skipped by the spring change maps to the change itself.
    ['Europe/Berlin', '2026-03-29T02:30:00Z', '2026-03-29T01:00:00.000Z'],
    ['America/Los_Angeles', '2026-03-08T02:00:00Z', '2026-03-08T10:00:00.000Z'],
    ['Australia/Lord_Howe', '2026-10-04T02:15:00Z', '2026-10-03T15:30:00.000Z'],
    // A wall time shown twice in the autumn maps to its first occurrence.
    ['Europe/Berlin', '2026-10-25T02:30:00Z', '2026-10-25T00:30:00.000Z'],
    ['America/Los_Angeles', '2026-11-01T01:30:00Z', '2026-11-01T08:30:00.000Z'],
    ['Australia/Lord_Howe', '2026-04-05T01:45:00Z', '2026-04-04T14:45:00.000Z'],
    ['Asia/Kathmandu', '2026-06-01T00:00:00Z', '2026-05-31T18:15:00.000Z'],
  ])('%s wall time %s is %s', (zone, wall, instant) => {
    expect(iso(instantOfWall(zone, ms(wall)))).toBe(instant);
  });
});

describe('DAY and HOUR buckets on the days of change', () => {
  it.each([
    // zone, local day, UTC start of the local day, its length in hours, HOUR buckets, lengths (min) of odd ones
    ['Europe/Berlin', '2026-03-29', '2026-03-28T23:00:00.000Z', 23, 23, []],
    ['Europe/Berlin', '2026-10-25', '2026-10-24T22:00:00.000Z', 25, 25, []],
    ['America/Los_Angeles', '2026-03-08', '2026-03-08T08:00:00.000Z', 23, 23, []],
    ['America/Los_Angeles', '2026-11-01', '2026-11-01T07:00:00.000Z', 25, 25, []],
    // Lord Howe: the clock goes back from 02:00 to 01:30, so a 30-minute bucket "01:30" follows "01:00".
    ['Australia/Lord_Howe', '2026-04-05', '2026-04-04T13:00:00.000Z', 24.5, 25, [30]],
    // ... and forward from 02:00 to 02:30: the "02:30" bucket lasts 30 minutes.
    ['Australia/Lord_Howe', '2026-10-04', '2026-10-03T13:30:00.000Z', 23.5, 24, [30]],
    ['Asia/Kolkata', '2026-06-01', '2026-05-31T18:30:00.000Z', 24, 24, []],
    ['Asia/Kathmandu', '2026-06-01', '2026-05-31T18:15:00.000Z', 24, 24, []],
  ])('%s %s starts at %s, lasts %d hours in %d HOUR buckets', (zone, date, start, hours, hourBuckets, odd) => {
    const noon = ms(`${date}T12:00:00Z`) - offsetAt(zone, ms(`${date}T12:00:00Z`));
    const dayStart = floorIn(zone, Granularity.DAY, noon);
    expect(iso(dayStart)).toBe(start);
    const dayEnd = nextBucketIn(zone, Granularity.DAY, dayStart);
    expect((dayEnd - dayStart) / HOUR).toBe(hours);
    const starts = bucketStartsIn(zone, Granularity.HOUR, dayStart, dayEnd);
    expect(starts).toHaveLength(hourBuckets);
    const lengths = starts.map((t, i) => ((starts[i + 1] ?? dayEnd) - t) / 60_000);
    expect(lengths.filter((l) => l !== 60)).toEqual(odd);
    // Every bucket start is its own floor, and every instant inside a bucket floors to its start.
    for (const [i, t] of starts.entries()) {
      expect(floorIn(zone, Granularity.HOUR, t)).toBe(t);
      expect(floorIn(zone, Granularity.HOUR, (starts[i + 1] ?? dayEnd) - 1)).toBe(t);
      if (i > 0) expect(previousBucketIn(zone, Granularity.HOUR, t)).toBe(starts[i - 1]);
    }
  });

  it.each([
    ['Europe/Berlin', '2026-10-25T01:30:00Z', '2026-10-25T01:00:00.000Z'],
    ['Australia/Lord_Howe', '2026-04-04T15:20:00Z', '2026-04-04T15:00:00.000Z'],
    ['Australia/Lord_Howe', '2026-04-04T15:40:00Z', '2026-04-04T15:30:00.000Z'],
    ['Asia/Kolkata', '2026-06-01T10:10:00Z', '2026-06-01T09:30:00.000Z'],
    ['Asia/Kathmandu', '2026-06-01T10:10:00Z', '2026-06-01T09:15:00.000Z'],
  ])('in %s the HOUR bucket holding %s starts at %s', (zone, at, start) => {
    expect(iso(floorIn(zone, Granularity.HOUR, ms(at)))).toBe(start);
  });
});

describe('WEEK, MONTH and MINUTE buckets', () => {
  it.each([
    // ISO weeks start on local Monday midnight; a week holding a change lasts 167 or 169 hours.
    ['Europe/Berlin', Granularity.WEEK, '2026-03-25T12:00:00Z', '2026-03-22T23:00:00.000Z', 167],
    ['America/Los_Angeles', Granularity.WEEK, '2026-11-01T12:00:00Z', '2026-10-26T07:00:00.000Z', 169],
    ['Europe/Berlin', Granularity.MONTH, '2026-03-15T00:00:00Z', '2026-02-28T23:00:00.000Z', 743],
    ['Australia/Lord_Howe', Granularity.MONTH, '2026-04-15T00:00:00Z', '2026-03-31T13:00:00.000Z', 720.5],
    ['Asia/Kolkata', Granularity.MONTH, '2026-02-10T00:00:00Z', '2026-01-31T18:30:00.000Z', 672],
    ['Asia/Kathmandu', Granularity.MINUTE, '2026-06-01T10:10:30Z', '2026-06-01T10:10:00.000Z', 1 / 60],
  ])('in %s the %s bucket holding %s starts at %s and lasts %d hours', (zone, granularity, at, start, hours) => {
    const t = floorIn(zone, granularity, ms(at));
    expect(iso(t)).toBe(start);
    expect((nextBucketIn(zone, granularity, t) - t) / HOUR).toBeCloseTo(hours, 10);
  });

  it('equals UTC arithmetic in UTC', () => {
    for (const granularity of [
      Granularity.MINUTE,
      Granularity.HOUR,
      Granularity.DAY,
      Granularity.WEEK,
      Granularity.MONTH,
    ]) {
      const t = ms('2024-02-29T13:45:10Z');
      const start = floorIn('UTC', granularity, t);
      expect(start).toBeLessThanOrEqual(t);
      expect(nextBucketIn('UTC', granularity, start)).toBeGreaterThan(t);
    }
  });
});

describe('sameWallTimeYearBefore', () => {
  it.each([
    ['Europe/Berlin', '2026-07-01T00:00:00+02:00', '2025-06-30T22:00:00.000Z'],
    ['Europe/Berlin', '2026-01-01T00:00:00+01:00', '2024-12-31T23:00:00.000Z'],
    // 29 February has no counterpart: 28 February.
    ['UTC', '2024-02-29T10:00:00Z', '2023-02-28T10:00:00.000Z'],
    ['Asia/Kathmandu', '2026-06-01T00:00:00+05:45', '2025-05-31T18:15:00.000Z'],
  ])('in %s maps %s to %s', (zone, at, expected) => {
    expect(iso(sameWallTimeYearBefore(zone, ms(at)))).toBe(expected);
  });
});
