import { EventTotals } from '../../../../src/query/events/EventTotals';
import type { EventSpan } from '../../../../src/query/events/EventLoader';
import { eventSeries, parseEventSeries } from '../../../../src/query/events/eventSeries';
import type { SeriesRequest } from '../../../../src/query/Series';
import type { EventStatsDocument } from '../../../../src/store/eventDocument';
import { DAY_MS } from '../../../../src/time/buckets';
import { Granularity } from '../../../../src/time/Granularity';

const MAY_4 = Date.UTC(2026, 4, 4); // a Monday

/** A fake loader over daily documents: day d of May holds d Signups by visitor register d. */
function loader(spans: EventSpan[]): (span: EventSpan) => Promise<EventTotals> {
  return async (span) => {
    spans.push(span);
    const docs: EventStatsDocument[] = [];
    for (let day = span.from; day < span.to; day += DAY_MS) {
      const d = new Date(day).getUTCDate();
      docs.push({
        _id: String(day),
        metadata: { date: new Date(day), site: span.site, page: span.page },
        n: { Signup: d },
        ev: { Signup: { [String(d)]: 1 } },
      });
    }
    return new EventTotals(span.from, span.to, docs);
  };
}

const request = (granularity: Granularity, from: number, to: number, visitors = true): SeriesRequest => ({
  site: 'a.example',
  page: '',
  granularity,
  from,
  to,
  visitors: visitors ? {} : undefined,
});

describe('eventSeries', () => {
  it('sums each DAY bucket, with visitors per bucket and over the span', async () => {
    const spans: EventSpan[] = [];
    const series = await eventSeries(request(Granularity.DAY, MAY_4, MAY_4 + 3 * DAY_MS), 'Signup', loader(spans));
    expect(series.points).toEqual([
      { t: MAY_4, hits: 4, visitors: 1 },
      { t: MAY_4 + DAY_MS, hits: 5, visitors: 1 },
      { t: MAY_4 + 2 * DAY_MS, hits: 6, visitors: 1 },
    ]);
    expect(series.total).toBe(15);
    expect(series.visitors).toEqual({ visitors: 3, from: MAY_4, to: MAY_4 + 3 * DAY_MS });
    // The span and every bucket are loaded together (one DataLoader batch).
    expect(spans).toHaveLength(4);
  });

  it('sums WEEK buckets over their days, and leaves visitors out when not asked for', async () => {
    const series = await eventSeries(
      request(Granularity.WEEK, MAY_4, MAY_4 + 14 * DAY_MS, false),
      'Signup',
      loader([]),
    );
    expect(series.points).toEqual([
      { t: MAY_4, hits: 4 + 5 + 6 + 7 + 8 + 9 + 10 },
      { t: MAY_4 + 7 * DAY_MS, hits: 11 + 12 + 13 + 14 + 15 + 16 + 17 },
    ]);
    expect(series.visitors).toBeUndefined();
  });

  it('refuses HOUR buckets and buckets off UTC midnight', () => {
    expect(() => parseEventSeries([request(Granularity.HOUR, MAY_4, MAY_4 + DAY_MS)], 'Signup')).toThrow(
      'an event series counts events per UTC day and month, so granularity must be DAY, WEEK or MONTH, got HOUR',
    );
    expect(() =>
      parseEventSeries([{ ...request(Granularity.DAY, MAY_4, MAY_4 + DAY_MS), timeZone: 'Europe/Berlin' }], 'Signup'),
    ).toThrow(/buckets must start at UTC midnight/);
    expect(() => parseEventSeries([request(Granularity.DAY, MAY_4, MAY_4 + DAY_MS)], '')).toThrow(
      'event must not be empty',
    );
  });
});
