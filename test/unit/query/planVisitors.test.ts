import { parseSeriesRequest } from '../../../src/query/parseSeriesRequest';
import { planSeries } from '../../../src/query/planSeries';
import { Granularity } from '../../../src/time/Granularity';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-03-11T12:00:00Z');
const limits = { maxBuckets: 10_000, secondsRetentionMs: 48 * HOUR };
const iso = (t: number): string => new Date(t).toISOString().replace(':00.000Z', 'Z');

/** `answered/buckets` and the span range visitors are counted over, `=` when it is the series' own. */
function summary(granularity: Granularity, from: string, to: string, timeZone: string, page?: string): string {
  const request = parseSeriesRequest(
    { site: 's', page, granularity, from: new Date(from), to: new Date(to), timeZone, visitors: true },
    limits,
    NOW,
  );
  const plan = planSeries(request);
  const answered = (plan.visitorPieces ?? []).filter((pieces) => pieces !== undefined).length;
  const cover = plan.visitorCover;
  return `${answered}/${plan.bucketStarts.length} ${cover ? `${iso(cover.from)}..${iso(cover.to)}` : '='}`;
}

describe('planSeries for visitors (now 2026-03-11T12:00Z, 48 hours of minute sketches)', () => {
  it.each([
    ['UTC days read daily sketches', Granularity.DAY, '2026-02-01T00:00:00Z', '2026-02-08T00:00:00Z', 'UTC', '7/7 ='],
    [
      'UTC months read monthly sketches',
      Granularity.MONTH,
      '2025-11-01T00:00:00Z',
      '2026-03-01T00:00:00Z',
      'UTC',
      '4/4 =',
    ],
    [
      'a UTC week across a month end reads 7 days',
      Granularity.WEEK,
      '2026-02-23T00:00:00Z',
      '2026-03-02T00:00:00Z',
      'UTC',
      '1/1 =',
    ],
    [
      'old Berlin days (+01:00) are covered by UTC days',
      Granularity.DAY,
      '2026-02-01T00:00:00+01:00',
      '2026-02-08T00:00:00+01:00',
      'Europe/Berlin',
      '0/7 2026-01-31T00:00Z..2026-02-08T00:00Z',
    ],
    [
      'recent Berlin days are minutes inside the retention',
      Granularity.DAY,
      '2026-03-10T00:00:00+01:00',
      '2026-03-12T00:00:00+01:00',
      'Europe/Berlin',
      '2/2 =',
    ],
    [
      'Berlin days across the retention edge: the old one null, the range covered from its UTC day',
      Granularity.DAY,
      '2026-03-09T00:00:00+01:00',
      '2026-03-12T00:00:00+01:00',
      'Europe/Berlin',
      '2/3 2026-03-08T00:00Z..2026-03-11T23:00Z',
    ],
    [
      'recent Kolkata hours (+05:30) are minutes',
      Granularity.HOUR,
      '2026-03-11T10:00:00+05:30',
      '2026-03-11T16:00:00+05:30',
      'Asia/Kolkata',
      '6/6 =',
    ],
    [
      'old Kathmandu months (+05:45) are covered by UTC days',
      Granularity.MONTH,
      '2025-11-01T00:00:00+05:45',
      '2026-01-01T00:00:00+05:45',
      'Asia/Kathmandu',
      '0/2 2025-10-31T00:00Z..2026-01-01T00:00Z',
    ],
    [
      "Berlin's 25-hour 26 October 2025 is covered by two UTC days",
      Granularity.DAY,
      '2025-10-26T00:00:00+02:00',
      '2025-10-27T00:00:00+01:00',
      'Europe/Berlin',
      '0/1 2025-10-25T00:00Z..2025-10-27T00:00Z',
    ],
    [
      'old UTC hours are covered by their UTC days',
      Granularity.HOUR,
      '2026-03-01T10:00:00Z',
      '2026-03-01T14:00:00Z',
      'UTC',
      '0/4 2026-03-01T00:00Z..2026-03-02T00:00Z',
    ],
    [
      'UTC hours across the retention edge: the range by the UTC day holding the edge',
      Granularity.HOUR,
      '2026-03-09T10:00:00Z',
      '2026-03-09T14:00:00Z',
      'UTC',
      '2/4 2026-03-09T00:00Z..2026-03-10T00:00Z',
    ],
    [
      'the first hour wholly inside the retention reads minutes',
      Granularity.HOUR,
      '2026-03-09T12:00:00Z',
      '2026-03-09T13:00:00Z',
      'UTC',
      '1/1 =',
    ],
    [
      'SECOND buckets have none; the range is its minutes',
      Granularity.SECOND,
      '2026-03-11T11:59:10Z',
      '2026-03-11T11:59:40Z',
      'UTC',
      '0/30 2026-03-11T11:59Z..2026-03-11T12:00Z',
    ],
    [
      'site totals follow the same periods',
      Granularity.DAY,
      '2026-02-27T00:00:00Z',
      '2026-03-03T00:00:00Z',
      'UTC',
      '4/4 =',
    ],
  ])('%s', (_name, granularity, from, to, zone, expected) => {
    const page = _name.startsWith('site') ? undefined : '/p';
    expect(summary(granularity, from, to, zone, page)).toBe(expected);
  });

  it('reads no sketch at all when visitors are not asked for', () => {
    const request = parseSeriesRequest(
      { site: 's', page: '/p', granularity: Granularity.DAY, from: new Date(NOW - 240 * HOUR), to: new Date(NOW) },
      limits,
      NOW,
    );
    const plan = planSeries(request);
    expect(plan.visitorPieces).toBeUndefined();
    expect(plan.reads.map((read) => [read.source, read.extra])).toEqual([['monthly', undefined]]);
  });

  it('adds `v` to the finds that carry the sketches, and only those', () => {
    const request = parseSeriesRequest(
      {
        site: 's',
        page: '/p',
        granularity: Granularity.HOUR,
        from: new Date('2026-03-09T10:00:00Z'),
        to: new Date('2026-03-09T14:00:00Z'),
        visitors: true,
      },
      limits,
      NOW,
    );
    expect(planSeries(request).reads.map((read) => [read.source, read.extra])).toEqual([
      ['hourly', { visitors: true }],
      ['seconds', { visitors: true }],
    ]);
  });

  it('without minute documents (SECONDS_ENABLED=false) covers recent local days by UTC days', () => {
    const request = parseSeriesRequest(
      {
        site: 's',
        page: '/p',
        granularity: Granularity.DAY,
        from: new Date('2026-03-10T00:00:00+01:00'),
        to: new Date('2026-03-11T00:00:00+01:00'),
        timeZone: 'Europe/Berlin',
        visitors: true,
      },
      { maxBuckets: 10_000 },
      NOW,
    );
    const plan = planSeries(request);
    expect(plan.visitorPieces).toEqual([undefined]);
    expect([plan.visitorCover?.from, plan.visitorCover?.to].map((t) => iso(t as number))).toEqual([
      '2026-03-09T00:00Z',
      '2026-03-11T00:00Z',
    ]);
  });
});
