/**
 * Visit counters of minutes (the live series, issue 29 follow-up): a bucket that needs minutes sums the minute
 * documents' `vm` counters from `visitMinutesFrom` on, and is null before it or without it (every other request).
 */
import type { DocumentLookup } from '../../../src/query/DocumentLookup';
import { fillSeries } from '../../../src/query/fillSeries';
import { planSeries } from '../../../src/query/planSeries';
import type { SeriesRequest } from '../../../src/query/Series';
import { visitFigures } from '../../../src/query/visitCounts';
import type { DailyStatsDocument } from '../../../src/store/dailyStats';
import type { SecondStatsDocument } from '../../../src/store/secondStats';
import type { StatsExtras } from '../../../src/store/statsExtras';
import { Granularity } from '../../../src/time/Granularity';

const ms = (iso: string): number => Date.parse(iso);
const metadata = (date: string) => ({ date: new Date(date), site: 's', page: '/p' });

const minutes: Array<SecondStatsDocument & StatsExtras> = [
  { _id: '202611211000/s/p', metadata: metadata('2026-11-21T10:00:00Z'), vm: { v: 2, e: 2, b: 1, s: 40, p: 3 } },
  { _id: '202611211002/s/p', metadata: metadata('2026-11-21T10:02:00Z'), vm: { v: 1, e: 0 } },
  { _id: '202611211029/s/p', metadata: metadata('2026-11-21T10:29:00Z'), vm: { v: 1, e: 1, b: 1, p: 1 } },
];
const daily: Array<DailyStatsDocument & StatsExtras> = [
  {
    _id: '20261121/s/p',
    metadata: metadata('2026-11-21T00:00:00Z'),
    hourly: { '9': 4 },
    minute: { '10': { '0': 3, '2': 1 } },
    vh: { '9': { v: 5, e: 4, b: 2, s: 300, p: 9 } },
  },
];
const lookup: DocumentLookup = {
  daily: (day) => daily.find((d) => d.metadata.date.getTime() === day),
  monthly: () => undefined,
  seconds: (minute) => minutes.find((d) => d.metadata.date.getTime() === minute),
};

function request(granularity: Granularity, from: string, to: string, extra: Partial<SeriesRequest>): SeriesRequest {
  return { site: 's', page: '/p', granularity, from: ms(from), to: ms(to), visits: true, ...extra };
}

describe('visit counters of minutes', () => {
  it('reads the minute documents of the buckets from visitMinutesFrom on, for their visit counters', () => {
    const plan = planSeries(
      request(Granularity.MINUTE, '2026-11-21T09:59:00Z', '2026-11-21T10:03:00Z', {
        visitMinutesFrom: ms('2026-11-21T10:00:00Z'),
      }),
    );
    const seconds = plan.reads.find((read) => read.source === 'seconds');
    expect(seconds?.ranges).toEqual([
      { site: 's', page: '/p', first: ms('2026-11-21T10:00:00Z'), last: ms('2026-11-21T10:02:00Z') },
    ]);
    expect(seconds?.extra?.visits).toBe(true);
  });

  it('sums MINUTE buckets from `vm`, null before visitMinutesFrom, and the total null then', () => {
    const edge = request(Granularity.MINUTE, '2026-11-21T09:59:00Z', '2026-11-21T10:03:00Z', {
      visitMinutesFrom: ms('2026-11-21T10:00:00Z'),
    });
    const series = fillSeries(edge, planSeries(edge), lookup);
    expect(series.points.map((point) => point.visits)).toEqual([
      null,
      { visits: 2, entered: 2, bounces: 1, seconds: 40, pageviews: 3, exits: 0 },
      { visits: 0, entered: 0, bounces: 0, seconds: 0, pageviews: 0, exits: 0 },
      { visits: 1, entered: 0, bounces: 0, seconds: 0, pageviews: 0, exits: 0 },
    ]);
    expect(series.visits).toBeNull();
    expect(series.points.map((point) => point.hits)).toEqual([0, 3, 0, 1]);
  });

  it('sums the window when every minute is inside, with the rates of the visits that entered on the page', () => {
    const live = request(Granularity.MINUTE, '2026-11-21T10:00:00Z', '2026-11-21T10:30:00Z', {
      visitMinutesFrom: ms('2026-11-21T09:00:00Z'),
    });
    const series = fillSeries(live, planSeries(live), lookup);
    expect(series.visits).toEqual({ visits: 4, entered: 3, bounces: 2, seconds: 40, pageviews: 4, exits: 0 });
    expect(visitFigures(series.visits as NonNullable<typeof series.visits>)).toEqual({
      visits: 4,
      bounceRate: 2 / 3,
      visitDuration: 40 / 3,
      viewsPerVisit: 4 / 3,
    });
  });

  it('keeps MINUTE buckets null without visitMinutesFrom (pageStats, export), reading no minute document', () => {
    const plain = request(Granularity.MINUTE, '2026-11-21T10:00:00Z', '2026-11-21T10:03:00Z', {});
    const plan = planSeries(plain);
    expect(plan.reads.some((read) => read.source === 'seconds')).toBe(false);
    const series = fillSeries(plain, plan, lookup);
    expect(series.points.map((point) => point.visits)).toEqual([null, null, null]);
    expect(series.visits).toBeNull();
  });

  it('sums a bucket of whole hours and minutes (a Kolkata hour) from both', () => {
    const kolkata = request(Granularity.HOUR, '2026-11-21T09:30:00Z', '2026-11-21T10:30:00Z', {
      timeZone: 'Asia/Kolkata',
      visitMinutesFrom: ms('2026-11-21T00:00:00Z'),
    });
    const series = fillSeries(kolkata, planSeries(kolkata), lookup);
    // 09:30–10:00 are minutes of hour 9 (no vm there), 10:00–10:30 the three minute documents.
    expect(series.points).toHaveLength(1);
    expect(series.points[0]?.visits).toEqual({
      visits: 4,
      entered: 3,
      bounces: 2,
      seconds: 40,
      pageviews: 4,
      exits: 0,
    });
  });

  it('gives SECOND buckets no visit counters', () => {
    const second = request(Granularity.SECOND, '2026-11-21T10:00:00Z', '2026-11-21T10:00:02Z', {
      visitMinutesFrom: ms('2026-11-21T00:00:00Z'),
    });
    const series = fillSeries(second, planSeries(second), lookup);
    expect(series.points.map((point) => point.visits)).toEqual([null, null]);
  });
});
