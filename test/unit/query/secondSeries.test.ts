import type { DocumentLookup } from '../../../src/query/DocumentLookup';
import { fillSeries } from '../../../src/query/fillSeries';
import { planSeries } from '../../../src/query/planSeries';
import type { SecondStatsDocument } from '../../../src/store/secondStats';
import { Granularity } from '../../../src/time/Granularity';

const ms = (iso: string): number => Date.parse(iso);
const iso = (t: number): string => new Date(t).toISOString();
const request = (from: string, to: string) => ({
  site: 's',
  page: '/p',
  granularity: Granularity.SECOND,
  from: ms(from),
  to: ms(to),
});

describe('planSeries for SECOND', () => {
  it.each([
    // from, to, first minute document, last minute document, buckets
    ['2026-03-10T14:05:10Z', '2026-03-10T14:05:20Z', '2026-03-10T14:05:00.000Z', '2026-03-10T14:05:00.000Z', 10],
    ['2026-03-10T14:05:58.500Z', '2026-03-10T14:06:01Z', '2026-03-10T14:05:00.000Z', '2026-03-10T14:06:00.000Z', 3],
    // The bucket starting at 14:06:00 starts before `to`, so it is included.
    ['2026-03-10T14:05:30Z', '2026-03-10T14:06:00.001Z', '2026-03-10T14:05:00.000Z', '2026-03-10T14:06:00.000Z', 31],
    ['2025-12-31T23:59:59Z', '2026-01-01T00:00:01Z', '2025-12-31T23:59:00.000Z', '2026-01-01T00:00:00.000Z', 2],
    ['2024-02-29T23:59:30Z', '2024-03-01T00:00:30Z', '2024-02-29T23:59:00.000Z', '2024-03-01T00:00:00.000Z', 60],
  ])('reads [%s, %s) from minute documents %s to %s (%d buckets)', (from, to, first, last, buckets) => {
    const plan = planSeries(request(from, to));
    expect(plan.reads).toHaveLength(1);
    expect(plan.reads[0]?.source).toBe('seconds');
    expect(iso(plan.reads[0]?.ranges[0]?.first as number)).toBe(first);
    expect(iso(plan.reads[0]?.ranges[0]?.last as number)).toBe(last);
    expect(plan.bucketStarts).toHaveLength(buckets);
    expect(plan.end).toBe((plan.bucketStarts[buckets - 1] as number) + 1000);
  });
});

describe('fillSeries for SECOND', () => {
  const metadata = (date: string) => ({ date: new Date(date), site: 's', page: '/p' });
  const docs: SecondStatsDocument[] = [
    { _id: '202512312359/s/p', metadata: metadata('2025-12-31T23:59:00Z'), seconds: { '58': 2, '59': 3 } },
    // A preallocated minute: zeros everywhere but second 0.
    {
      _id: '202601010000/s/p',
      metadata: metadata('2026-01-01T00:00:00Z'),
      seconds: Object.fromEntries([...Array(60).keys()].map((s) => [String(s), s === 0 ? 7 : 0])),
    },
  ];
  const lookup: DocumentLookup = {
    daily: () => undefined,
    monthly: () => undefined,
    seconds: (minute) => docs.find((d) => d.metadata.date.getTime() === minute),
  };

  it.each([
    ['2025-12-31T23:59:57Z', '2026-01-01T00:00:02Z', [0, 2, 3, 7, 0]],
    ['2025-12-31T23:59:58.999Z', '2025-12-31T23:59:59.001Z', [2, 3]],
    // No document for the minute: zeros.
    ['2026-01-01T00:01:00Z', '2026-01-01T00:01:03Z', [0, 0, 0]],
  ])('fills [%s, %s) with %j', (from, to, values) => {
    const r = request(from, to);
    const series = fillSeries(r, planSeries(r), lookup);
    expect(series.points.map((p) => p.hits)).toEqual(values);
    expect(series.total).toBe(values.reduce((a, b) => a + b, 0));
  });

  it('reads zeros when the lookup has no second-level documents at all', () => {
    const r = request('2025-12-31T23:59:58Z', '2025-12-31T23:59:59Z');
    const series = fillSeries(r, planSeries(r), { daily: () => undefined, monthly: () => undefined });
    expect(series.points).toEqual([{ t: ms('2025-12-31T23:59:58Z'), hits: 0 }]);
  });
});
