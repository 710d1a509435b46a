import { RANGES, findRange, pickGranularity, rangeAt } from '../../../web/dashboard/ranges';

describe('the dashboard pickers', () => {
  it('falls back to the last hour for an unknown range', () => {
    expect(findRange('forever').id).toBe('1h');
    expect(findRange(null).id).toBe('1h');
  });

  it.each([
    ['1h', 'SECOND', 'SECOND'],
    ['1h', 'DAY', 'MINUTE'],
    ['24h', null, 'HOUR'],
    ['7d', 'MINUTE', 'HOUR'],
    ['90d', 'MONTH', 'MONTH'],
  ])('for range %s and granularity %s picks %s', (range, wanted, expected) => {
    expect(pickGranularity(findRange(range), wanted)).toBe(expected);
  });

  it('keeps every range within 10,000 buckets (QUERY_MAX_BUCKETS) at every granularity it offers', () => {
    const bucketMs = { SECOND: 1e3, MINUTE: 6e4, HOUR: 36e5, DAY: 864e5, WEEK: 6048e5, MONTH: 2592e6 };
    for (const range of RANGES) {
      for (const granularity of range.granularities) {
        expect(range.ms / bucketMs[granularity]).toBeLessThanOrEqual(10_000);
      }
    }
  });

  it('ends a range at now', () => {
    expect(rangeAt(findRange('1h'), Date.UTC(2026, 0, 1, 0, 30))).toEqual({
      from: '2025-12-31T23:30:00.000Z',
      to: '2026-01-01T00:30:00.000Z',
    });
  });
});
