import { packCounters } from '../../../src/domain/dimensions/packedCounters';
import type { DocumentLookup } from '../../../src/query/DocumentLookup';
import { fillSeries } from '../../../src/query/fillSeries';
import { planSeries } from '../../../src/query/planSeries';
import type { SeriesRequest } from '../../../src/query/Series';
import type { DailyStatsDocument } from '../../../src/store/dailyStats';
import type { MonthlyStatsDocument } from '../../../src/store/monthlyStats';
import { Granularity } from '../../../src/time/Granularity';

const ms = (iso: string): number => Date.parse(iso);
const metadata = (date: string) => ({ date: new Date(date), site: 's', page: '/p' });

const daily: DailyStatsDocument[] = [
  {
    _id: '20251231/s/p',
    metadata: metadata('2025-12-31T00:00:00Z'),
    hourly: { '23': 5 },
    minute: { '23': { '59': 5 } },
  },
  {
    _id: '20260101/s/p',
    metadata: metadata('2026-01-01T00:00:00Z'),
    hourly: { '0': 7 },
    minute: { '0': { '0': 3, '1': 4 } },
  },
];
const monthly: MonthlyStatsDocument[] = [
  { _id: '202402/s/p', metadata: metadata('2024-02-01T00:00:00Z'), daily: { '26': 1, '29': 2 } },
  { _id: '202403/s/p', metadata: metadata('2024-03-01T00:00:00Z'), daily: { '1': 4, '3': 8, '4': 16 } },
];
const lookup: DocumentLookup = {
  daily: (day) => daily.find((d) => d.metadata.date.getTime() === day),
  monthly: (month) => monthly.find((d) => d.metadata.date.getTime() === month),
};

function fill(granularity: Granularity, from: string, to: string) {
  const request: SeriesRequest = { site: 's', page: '/p', granularity, from: ms(from), to: ms(to) };
  return fillSeries(request, planSeries(request), lookup);
}

describe('fillSeries', () => {
  it('returns zero-filled minute buckets across midnight and a year end', () => {
    const series = fill(Granularity.MINUTE, '2025-12-31T23:58:00Z', '2026-01-01T00:03:00Z');
    expect(series.points.map((p) => p.hits)).toEqual([0, 5, 3, 4, 0]);
    expect(series.total).toBe(12);
    expect(new Date(series.from).toISOString()).toBe('2025-12-31T23:58:00.000Z');
    expect(new Date(series.to).toISOString()).toBe('2026-01-01T00:03:00.000Z');
  });

  it('returns zero-filled hour buckets for hours without hits', () => {
    const series = fill(Granularity.HOUR, '2025-12-31T22:00:00Z', '2026-01-01T02:00:00Z');
    expect(series.points.map((p) => p.hits)).toEqual([0, 5, 7, 0]);
  });

  it('reads days over a leap day and a month end from monthly documents', () => {
    const series = fill(Granularity.DAY, '2024-02-28T00:00:00Z', '2024-03-03T00:00:00Z');
    expect(series.points.map((p) => [new Date(p.t).toISOString().slice(0, 10), p.hits])).toEqual([
      ['2024-02-28', 0],
      ['2024-02-29', 2],
      ['2024-03-01', 4],
      ['2024-03-02', 0],
    ]);
  });

  it('sums ISO weeks across a month boundary', () => {
    // Week of Monday 2024-02-26 holds 26 Feb (1), 29 Feb (2), 1 Mar (4), 3 Mar (8); 4 Mar starts the next week.
    const series = fill(Granularity.WEEK, '2024-02-27T00:00:00Z', '2024-03-05T00:00:00Z');
    expect(series.points.map((p) => [new Date(p.t).toISOString().slice(0, 10), p.hits])).toEqual([
      ['2024-02-26', 15],
      ['2024-03-04', 16],
    ]);
  });

  it('sums calendar months, including a whole bucket for a partial first month', () => {
    const series = fill(Granularity.MONTH, '2024-02-15T00:00:00Z', '2024-04-01T00:00:00Z');
    expect(series.points.map((p) => p.hits)).toEqual([3, 28]);
    expect(series.total).toBe(31);
  });

  it('sums one value of a filtered series from its counter and from the packed counters beside it', () => {
    const packed = (google: number) => ({
      source: packCounters([
        ['google', google],
        ['news%2Eexample', 100],
      ]),
    });
    const days = [
      { d: { source: { google: 1 } }, dz: packed(10) },
      { dz: packed(20) },
      { d: { source: { 'news%2Eexample': 3 } } },
    ].map((fields, i) => ({ ...fields, metadata: metadata(`2024-01-0${i + 1}T00:00:00Z`) }));
    const month = { d: { source: { google: 4 } }, dz: packed(30), metadata: metadata('2023-12-01T00:00:00Z') };
    const filtered: DocumentLookup = {
      daily: (day) => days.find((d) => d.metadata.date.getTime() === day) as ReturnType<DocumentLookup['daily']>,
      monthly: (t) =>
        (t === month.metadata.date.getTime() ? month : undefined) as ReturnType<DocumentLookup['monthly']>,
    };
    const hits = (granularity: Granularity, from: string, to: string): Array<number | null> => {
      const request: SeriesRequest = {
        site: 's',
        page: '/p',
        granularity,
        from: ms(from),
        to: ms(to),
        filter: { dimension: 'source', value: 'google', key: 'google', sketched: false },
      };
      return fillSeries(request, planSeries(request), filtered).points.map((p) => p.hits);
    };
    expect(hits(Granularity.DAY, '2024-01-01T00:00:00Z', '2024-01-04T00:00:00Z')).toEqual([11, 20, 0]);
    expect(hits(Granularity.MONTH, '2023-12-01T00:00:00Z', '2024-01-01T00:00:00Z')).toEqual([34]);
  });
});
