import { comparisonRequest } from '../../../src/query/comparisonRequest';
import type { SeriesRequest } from '../../../src/query/Series';
import { Granularity } from '../../../src/time/Granularity';

const ms = (iso: string): number => Date.parse(iso);
const iso = (t: number): string => new Date(t).toISOString();
const request = (granularity: Granularity, from: string, to: string, timeZone = 'UTC'): SeriesRequest => ({
  site: 's',
  page: '/p',
  granularity,
  from: ms(from),
  to: ms(to),
  timeZone,
});

describe('comparisonRequest', () => {
  it.each([
    // granularity, from, to, zone, previous period [from, to)
    [
      Granularity.DAY,
      '2026-03-10T00:00:00Z',
      '2026-03-17T00:00:00Z',
      'UTC',
      '2026-03-03T00:00:00.000Z',
      '2026-03-10T00:00:00.000Z',
    ],
    // Rounded to buckets first: a partial day counts as its whole day.
    [
      Granularity.DAY,
      '2026-03-10T12:00:00Z',
      '2026-03-11T01:00:00Z',
      'UTC',
      '2026-03-08T00:00:00.000Z',
      '2026-03-10T00:00:00.000Z',
    ],
    // Three months back from April: January to March, whatever their lengths.
    [
      Granularity.MONTH,
      '2026-04-01T00:00:00Z',
      '2026-07-01T00:00:00Z',
      'UTC',
      '2026-01-01T00:00:00.000Z',
      '2026-04-01T00:00:00.000Z',
    ],
    // Berlin days before 30 March include the 23-hour 29 March.
    [
      Granularity.DAY,
      '2026-03-30T00:00:00+02:00',
      '2026-04-01T00:00:00+02:00',
      'Europe/Berlin',
      '2026-03-27T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
    ],
    // The previous 24 Los Angeles hours across the 25-hour 1 November.
    [
      Granularity.HOUR,
      '2026-11-02T00:00:00-08:00',
      '2026-11-03T00:00:00-08:00',
      'America/Los_Angeles',
      '2026-11-01T08:00:00.000Z',
      '2026-11-02T08:00:00.000Z',
    ],
  ])('%s [%s, %s) in %s: previous period is [%s, %s)', (granularity, from, to, zone, prevFrom, prevTo) => {
    const previous = comparisonRequest(request(granularity, from, to, zone), 'PREVIOUS_PERIOD');
    expect([iso(previous.from), iso(previous.to)]).toEqual([prevFrom, prevTo]);
  });

  it.each([
    [
      Granularity.DAY,
      '2026-03-10T00:00:00Z',
      '2026-03-17T00:00:00Z',
      'UTC',
      '2025-03-10T00:00:00.000Z',
      '2025-03-17T00:00:00.000Z',
    ],
    [
      Granularity.DAY,
      '2026-07-01T00:00:00+02:00',
      '2026-07-02T00:00:00+02:00',
      'Europe/Berlin',
      '2025-06-30T22:00:00.000Z',
      '2025-07-01T22:00:00.000Z',
    ],
    [
      Granularity.MONTH,
      '2024-02-01T00:00:00Z',
      '2024-03-01T00:00:00Z',
      'UTC',
      '2023-02-01T00:00:00.000Z',
      '2023-03-01T00:00:00.000Z',
    ],
  ])('%s [%s, %s) in %s: a year earlier is [%s, %s)', (granularity, from, to, zone, yearFrom, yearTo) => {
    const earlier = comparisonRequest(request(granularity, from, to, zone), 'PREVIOUS_YEAR');
    expect([iso(earlier.from), iso(earlier.to)]).toEqual([yearFrom, yearTo]);
    expect(earlier).toMatchObject({ site: 's', page: '/p', granularity, timeZone: zone });
  });
});
