import { planSeries } from '../../../src/query/planSeries';
import type { SeriesRequest } from '../../../src/query/Series';
import { Granularity } from '../../../src/time/Granularity';

const ms = (iso: string): number => Date.parse(iso);
const day = (t: number): string => new Date(t).toISOString().slice(0, 10);
const request = (granularity: Granularity, from: string, to: string, timeZone?: string): SeriesRequest => ({
  site: 's',
  page: '/p',
  granularity,
  from: ms(from),
  to: ms(to),
  timeZone,
});
/** `source first..last` for every run of documents the plan reads, e.g. `monthly 2024-01-01..2024-04-01`. */
const reads = (r: SeriesRequest): string[] =>
  planSeries(r).reads.flatMap((read) =>
    read.ranges.map((range) => `${read.source} ${day(range.first)}..${day(range.last)}`),
  );

describe('planSeries', () => {
  it.each([
    [Granularity.MINUTE, '2026-03-10T14:05:00Z', '2026-03-10T15:05:00Z', ['minute 2026-03-10..2026-03-10']],
    [Granularity.MINUTE, '2025-12-31T23:30:00Z', '2026-01-01T00:30:00Z', ['minute 2025-12-31..2026-01-01']],
    [Granularity.HOUR, '2024-02-28T00:00:00Z', '2024-03-01T00:00:00Z', ['hourly 2024-02-28..2024-02-29']],
    [Granularity.DAY, '2024-01-15T00:00:00Z', '2024-04-14T00:00:00Z', ['monthly 2024-01-01..2024-04-01']],
    // A week that starts in the previous month needs that month's document.
    [Granularity.WEEK, '2026-06-02T00:00:00Z', '2026-06-10T00:00:00Z', ['monthly 2026-06-01..2026-06-01']],
    [Granularity.WEEK, '2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z', ['monthly 2026-02-01..2026-03-01']],
    [Granularity.MONTH, '2025-11-20T00:00:00Z', '2026-01-02T00:00:00Z', ['monthly 2025-11-01..2026-01-01']],
  ])('reads UTC %s [%s, %s) from %j', (granularity, from, to, expected) => {
    expect(reads(request(granularity, from, to))).toEqual(expected);
  });

  it.each([
    // Whole-hour offset: a local day is hourly counters of two UTC days, never minutes.
    [
      'Europe/Berlin',
      Granularity.DAY,
      '2026-03-10T00:00:00+01:00',
      '2026-03-11T00:00:00+01:00',
      ['hourly 2026-03-09..2026-03-10'],
    ],
    // A local week: whole UTC days in the middle from the monthly document, hours at both ends.
    [
      'America/Los_Angeles',
      Granularity.WEEK,
      '2026-03-02T00:00:00-08:00',
      '2026-03-09T00:00:00-07:00',
      ['monthly 2026-03-01..2026-03-01', 'hourly 2026-03-02..2026-03-02', 'hourly 2026-03-09..2026-03-09'],
    ],
    // Half-hour offset: the boundary hour's minutes, whole hours around them.
    [
      'Asia/Kolkata',
      Granularity.DAY,
      '2026-06-01T00:00:00+05:30',
      '2026-06-02T00:00:00+05:30',
      ['hourly 2026-05-31..2026-06-01', 'minute 2026-05-31..2026-06-01'],
    ],
  ])('in %s reads %s [%s, %s) from %j', (zone, granularity, from, to, expected) => {
    expect(reads(request(granularity, from, to, zone))).toEqual(expected);
  });

  it('projects only the hours a one-hour minute chart touches', () => {
    expect([...planSeries(request(Granularity.MINUTE, '2026-03-10T14:05:00Z', '2026-03-10T15:05:00Z')).hours]).toEqual([
      14, 15,
    ]);
    expect([...planSeries(request(Granularity.MINUTE, '2026-03-10T14:00:00Z', '2026-03-10T15:00:00Z')).hours]).toEqual([
      14,
    ]);
  });

  it("reads only the boundary hour's minutes for a Kathmandu day (+05:45)", () => {
    const plan = planSeries(
      request(Granularity.DAY, '2026-06-01T00:00:00+05:45', '2026-06-02T00:00:00+05:45', 'Asia/Kathmandu'),
    );
    expect([...plan.hours]).toEqual([18]);
    expect(plan.bucketStarts.map((t) => new Date(t).toISOString())).toEqual(['2026-05-31T18:15:00.000Z']);
  });
});
