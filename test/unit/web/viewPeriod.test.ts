import { periodParams, readPeriod, resolvePeriod } from '../../../web/dashboard/viewPeriod';

const NOW = Date.UTC(2026, 10, 26, 12, 39); // Thursday 26 November 2026, 12:39 UTC

describe('the period in the URL', () => {
  it.each<[string | null, string | null, string | null, Record<string, string>]>([
    ['24h', null, null, { range: '24h' }],
    ['mtd', null, null, { range: 'mtd' }],
    ['all', null, null, { range: 'all' }],
    [null, '2025-01-01', '2025-03-31', { from: '2025-01-01', to: '2025-03-31' }],
    ['7d', '2025-01-01', '2025-03-31', { from: '2025-01-01', to: '2025-03-31' }],
    ['7d', '2025-03-31', '2025-01-01', { range: '7d' }],
    ['forever', null, null, { range: '1h' }],
    [null, '2025-02-30', '2025-03-01', { range: '1h' }],
  ])('range=%s from=%s to=%s reads back as %j', (range, from, to, params) => {
    expect(periodParams(readPeriod(range, from, to))).toEqual(params);
  });
});

describe('a period at now', () => {
  it('ends a rolling range at now and follows it live', () => {
    expect(resolvePeriod(readPeriod('1h', null, null), NOW, 'UTC')).toMatchObject({
      from: '2026-11-26T11:39:00.000Z',
      to: '2026-11-26T12:39:00.000Z',
      granularities: ['MINUTE', 'SECOND'],
      live: true,
    });
  });

  it.each([
    ['today', '2026-11-26T00:00:00.000Z', '2026-11-27T00:00:00.000Z', 'HOUR', true],
    ['yesterday', '2026-11-25T00:00:00.000Z', '2026-11-26T00:00:00.000Z', 'HOUR', false],
    ['mtd', '2026-11-01T00:00:00.000Z', '2026-11-27T00:00:00.000Z', 'DAY', true],
    ['lastMonth', '2026-10-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', 'DAY', false],
    ['ytd', '2026-01-01T00:00:00.000Z', '2026-11-27T00:00:00.000Z', 'DAY', true],
    ['12mo', '2025-12-01T00:00:00.000Z', '2026-11-27T00:00:00.000Z', 'DAY', true],
  ])('%s is [%s, %s) by %s, live: %s', (range, from, to, granularity, live) => {
    const period = resolvePeriod(readPeriod(range, null, null), NOW, 'UTC');
    expect(period).toMatchObject({ from, to, live });
    expect(period?.granularities[0]).toBe(granularity);
  });

  it('takes the local day in the zone given: in Tokyo it is already 27 November at 15:00 UTC', () => {
    const period = resolvePeriod(readPeriod('today', null, null), Date.UTC(2026, 10, 26, 15), 'Asia/Tokyo');
    expect(period).toMatchObject({ from: '2026-11-26T15:00:00.000Z', to: '2026-11-27T15:00:00.000Z' });
  });

  it('runs all time from the first stored day, by month past 400 days, and has none without a first day', () => {
    const all = readPeriod('all', null, null);
    expect(resolvePeriod(all, NOW, 'UTC', '2025-03-29')).toMatchObject({
      label: 'All time',
      from: '2025-03-29T00:00:00.000Z',
      to: '2026-11-27T00:00:00.000Z',
      days: { first: '2025-03-29', last: '2026-11-26' },
      granularities: ['MONTH', 'DAY', 'WEEK'],
    });
    expect(resolvePeriod(all, NOW, 'UTC')).toBeUndefined();
  });

  it('takes a custom range as whole days, both included, live only while it reaches past now', () => {
    expect(resolvePeriod(readPeriod(null, '2025-02-01', '2025-02-28'), NOW, 'UTC')).toEqual({
      label: '2025-02-01 to 2025-02-28',
      granularities: ['DAY', 'HOUR', 'WEEK'],
      from: '2025-02-01T00:00:00.000Z',
      to: '2025-03-01T00:00:00.000Z',
      days: { first: '2025-02-01', last: '2025-02-28' },
      live: false,
    });
    expect(resolvePeriod(readPeriod(null, '2026-11-20', '2026-11-26'), NOW, 'UTC')?.live).toBe(true);
  });
});
