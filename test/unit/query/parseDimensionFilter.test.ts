import type { Dimension } from '../../../src/domain/dimensions/Dimension';
import { comparisonRequest } from '../../../src/query/comparisonRequest';
import { checkDayBuckets } from '../../../src/query/parseDimensionFilter';
import { parseSeriesRequest } from '../../../src/query/parseSeriesRequest';
import type { SeriesInput } from '../../../src/query/parseSeriesRequest';
import { Granularity } from '../../../src/time/Granularity';

const NOW = Date.parse('2026-03-11T12:00:00Z');
const limits = {
  maxBuckets: 10_000,
  secondsRetentionMs: 48 * 3_600_000,
  dimensionVisitors: new Set<Dimension>(['device']),
};
const input = (over: Partial<SeriesInput> = {}): SeriesInput => ({
  site: 's',
  page: '/a',
  granularity: Granularity.DAY,
  from: new Date('2026-03-01T00:00:00Z'),
  to: new Date('2026-03-08T00:00:00Z'),
  filter: { dimension: 'source', value: 'Google' },
  ...over,
});

describe('dimension filters', () => {
  it('keep the value and the key it is stored under', () => {
    expect(parseSeriesRequest(input({ filter: { dimension: 'source', value: 'a.b' } }), limits, NOW).filter).toEqual({
      dimension: 'source',
      value: 'a.b',
      key: 'a%2Eb',
      sketched: false,
    });
  });

  it.each([
    ['site totals of a sketched dimension', undefined, 'device', true],
    ['a page of a sketched dimension', '/a', 'device', false],
    ['site totals of a dimension without sketches', undefined, 'source', false],
  ] as const)('read per-value visitors for %s: %s', (_name, page, dimension, sketched) => {
    const request = parseSeriesRequest(input({ page, filter: { dimension, value: 'mobile' } }), limits, NOW);
    expect(request.filter?.sketched).toBe(sketched);
  });

  it.each([
    [Granularity.DAY, 'UTC'],
    [Granularity.WEEK, 'UTC'],
    [Granularity.MONTH, 'UTC'],
    // London is at UTC+0 in winter: its days are UTC days.
    [Granularity.DAY, 'Europe/London'],
    [Granularity.MONTH, 'Atlantic/Reykjavik'],
  ])('accept %s buckets in %s', (granularity, timeZone) => {
    expect(() =>
      parseSeriesRequest(
        input({ granularity, timeZone, from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-03-01T00:00:00Z') }),
        limits,
        NOW,
      ),
    ).not.toThrow();
  });

  it.each([
    [
      input({ granularity: Granularity.HOUR }),
      'granularity',
      'filter counts hits per UTC day and month, so granularity must be DAY, WEEK or MONTH, got HOUR',
    ],
    [
      input({ granularity: Granularity.SECOND, from: new Date(NOW - 60_000), to: new Date(NOW) }),
      'granularity',
      'filter counts hits per UTC day and month, so granularity must be DAY, WEEK or MONTH, got SECOND',
    ],
    [
      input({ timeZone: 'Europe/Berlin' }),
      'timeZone',
      'filter counts hits per UTC day, so buckets must start at UTC midnight; in Europe/Berlin a bucket boundary of the series falls at 2026-03-01T00:00:00+01:00; use timeZone "UTC"',
    ],
    [
      input({ timeZone: 'Asia/Kathmandu', granularity: Granularity.MONTH }),
      'timeZone',
      'filter counts hits per UTC day, so buckets must start at UTC midnight; in Asia/Kathmandu a bucket boundary of the series falls at 2026-03-01T00:00:00+05:45; use timeZone "UTC"',
    ],
    [
      // London leaves UTC+0 on 29 March 2026: the week after has boundaries at 23:00Z.
      input({
        timeZone: 'Europe/London',
        from: new Date('2026-03-25T00:00:00Z'),
        to: new Date('2026-04-02T00:00:00Z'),
      }),
      'timeZone',
      'filter counts hits per UTC day, so buckets must start at UTC midnight; in Europe/London a bucket boundary of the series falls at 2026-03-30T00:00:00+01:00; use timeZone "UTC"',
    ],
    [input({ filter: { dimension: 'source', value: '' } }), 'filter.value', 'filter.value must not be empty'],
    [
      input({ filter: { dimension: 'country', value: 'DEU' } }),
      'filter.value',
      'filter.value must be at most 2 characters for dimension COUNTRY, got 3',
    ],
    [
      input({ filter: { dimension: 'utmSource', value: 'x'.repeat(101) } }),
      'filter.value',
      'filter.value must be at most 100 characters for dimension UTM_SOURCE, got 101',
    ],
  ])('refuse %j naming the argument to change', (request, field, message) => {
    expect(() => parseSeriesRequest(request, limits, NOW)).toThrow(
      expect.objectContaining({ code: 'BAD_USER_INPUT', field, message }),
    );
  });

  it('refuse a comparison whose buckets are not UTC days, naming the comparison', () => {
    // London is back at UTC+0 from 25 October 2026 (2025: the 26th); 25 October 2026 itself starts in summer time.
    const request = parseSeriesRequest(
      input({
        timeZone: 'Europe/London',
        from: new Date('2026-10-27T00:00:00Z'),
        to: new Date('2026-10-29T00:00:00Z'),
      }),
      limits,
      NOW,
    );
    expect(() => checkDayBuckets(comparisonRequest(request, 'PREVIOUS_YEAR'), 'the comparison')).not.toThrow();
    expect(() => checkDayBuckets(comparisonRequest(request, 'PREVIOUS_PERIOD'), 'the comparison')).toThrow(
      expect.objectContaining({
        field: 'timeZone',
        message:
          'filter counts hits per UTC day, so buckets must start at UTC midnight; in Europe/London a bucket boundary of the comparison falls at 2026-10-25T00:00:00+01:00; use timeZone "UTC"',
      }),
    );
  });
});
