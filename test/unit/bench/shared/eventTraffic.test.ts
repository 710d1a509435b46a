import {
  EVENT_SHARE,
  PURCHASE,
  REVENUE_SHARE,
  SIGNUP,
  eventAt,
  hitEventOf,
} from '../../../../bench/shared/eventTraffic';

const HITS = 200_000;

describe('eventTraffic', () => {
  const events = Array.from({ length: HITS }, (_, i) => eventAt(7, i));
  const sent = events.filter((event) => event !== undefined);

  it.each([
    ['events', EVENT_SHARE, sent.length],
    ['events with revenue', REVENUE_SHARE, sent.filter((event) => event.revenue !== undefined).length],
  ])('makes %s the share of hits it states', (_, share, count) => {
    expect(Math.abs(count / HITS - share)).toBeLessThan(0.002);
  });

  it('gives every event two properties, and revenue to every Purchase and no Signup', () => {
    expect(sent.every((event) => event.props.length === 2)).toBe(true);
    expect(new Set(sent.map((event) => event.name))).toEqual(new Set([SIGNUP, PURCHASE]));
    expect(sent.every((event) => (event.name === PURCHASE) === (event.revenue !== undefined))).toBe(true);
  });

  it('sends the amount its minor units count, in EUR or USD', () => {
    for (const event of sent.slice(0, 500)) {
      if (event.revenue === undefined) continue;
      expect(event.revenue.amount).toBe((event.revenue.minor / 100).toFixed(2));
      expect(['EUR', 'USD']).toContain(event.revenue.currency);
      expect(hitEventOf(event).revenue).toEqual({ currency: event.revenue.currency, minor: event.revenue.minor });
    }
  });

  it('is the same traffic at every call', () => {
    expect(Array.from({ length: 1_000 }, (_, i) => eventAt(7, i))).toEqual(events.slice(0, 1_000));
  });
});
