import { LiveCounts, bucketIndex } from '../../../web/dashboard/liveBuckets';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('bucketIndex', () => {
  // Hour buckets starting at 10:00, 11:00, 12:00; the last ends at 13:00.
  const starts = [10 * HOUR, 11 * HOUR, 12 * HOUR];
  const end = 13 * HOUR;

  it.each([
    ['before the first bucket', 10 * HOUR - MIN, -1],
    ['the first instant of the first bucket', 10 * HOUR, 0],
    ['inside the first bucket', 10 * HOUR + 59 * MIN, 0],
    ['the first instant of a later bucket', 11 * HOUR, 1],
    ['inside the last bucket', 12 * HOUR + 30 * MIN, 2],
    ['the end of the range (exclusive)', 13 * HOUR, 3],
    ['after the range', 14 * HOUR, 3],
  ])('places %s at %i', (_what, t, expected) => {
    expect(bucketIndex(starts, end, t)).toBe(expected);
  });

  it('finds the bucket among uneven ones (months)', () => {
    const months = [Date.UTC(2026, 0, 1), Date.UTC(2026, 1, 1), Date.UTC(2026, 2, 1)];
    expect(bucketIndex(months, Date.UTC(2026, 3, 1), Date.UTC(2026, 1, 28, 23, 59))).toBe(1);
    expect(bucketIndex(months, Date.UTC(2026, 3, 1), Date.UTC(2026, 2, 1))).toBe(2);
  });

  it('has no bucket for an empty series', () => {
    expect(bucketIndex([], 0, 5)).toBe(-1);
  });
});

describe('LiveCounts', () => {
  it('takes the snapshot as the baseline and reports no increments for it', () => {
    const counts = new LiveCounts();
    expect(
      counts.apply(true, [
        { t: 0, hits: 4 },
        { t: MIN, hits: 1 },
      ]),
    ).toEqual([]);
  });

  it('turns later absolute counts into increments, counting buckets it has not seen from zero', () => {
    const counts = new LiveCounts();
    counts.apply(true, [{ t: 0, hits: 4 }]);
    expect(
      counts.apply(false, [
        { t: 0, hits: 6 },
        { t: MIN, hits: 2 },
      ]),
    ).toEqual([
      { t: 0, hits: 2 },
      { t: MIN, hits: 2 },
    ]);
    expect(counts.apply(false, [{ t: MIN, hits: 2 }])).toEqual([]);
    expect(counts.apply(false, [{ t: MIN, hits: 5 }])).toEqual([{ t: MIN, hits: 3 }]);
  });

  it('starts over from a new snapshot (the socket reconnected)', () => {
    const counts = new LiveCounts();
    counts.apply(true, [{ t: 0, hits: 4 }]);
    expect(counts.apply(true, [{ t: 0, hits: 9 }])).toEqual([]);
    expect(counts.apply(false, [{ t: 0, hits: 10 }])).toEqual([{ t: 0, hits: 1 }]);
  });
});
