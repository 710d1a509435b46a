import { hoursTouched, planSeries } from '../../../src/query/planSeries';
import { Granularity } from '../../../src/time/Granularity';

const ms = (iso: string): number => Date.parse(iso);
const request = (granularity: Granularity, from: string, to: string) => ({
  site: 's',
  page: '/p',
  granularity,
  from: ms(from),
  to: ms(to),
});

describe('planSeries', () => {
  it.each([
    // granularity, from, to, source, first document, last document
    [Granularity.MINUTE, '2026-03-10T14:05:00Z', '2026-03-10T15:05:00Z', 'minute', '2026-03-10', '2026-03-10'],
    [Granularity.MINUTE, '2025-12-31T23:30:00Z', '2026-01-01T00:30:00Z', 'minute', '2025-12-31', '2026-01-01'],
    [Granularity.HOUR, '2024-02-28T00:00:00Z', '2024-03-01T00:00:00Z', 'hourly', '2024-02-28', '2024-02-29'],
    [Granularity.DAY, '2024-01-15T00:00:00Z', '2024-04-14T00:00:00Z', 'monthly', '2024-01-01', '2024-04-01'],
    // A week that starts in the previous month needs that month's document.
    [Granularity.WEEK, '2026-06-02T00:00:00Z', '2026-06-10T00:00:00Z', 'monthly', '2026-06-01', '2026-06-01'],
    [Granularity.WEEK, '2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z', 'monthly', '2026-02-01', '2026-03-01'],
    [Granularity.MONTH, '2025-11-20T00:00:00Z', '2026-01-02T00:00:00Z', 'monthly', '2025-11-01', '2026-01-01'],
  ])('reads %s [%s, %s) from %s documents %s to %s', (granularity, from, to, source, first, last) => {
    const plan = planSeries(request(granularity, from, to));
    expect(plan.source).toBe(source);
    expect(new Date(plan.range.first).toISOString().slice(0, 10)).toBe(first);
    expect(new Date(plan.range.last).toISOString().slice(0, 10)).toBe(last);
  });

  it('projects only the hours a one-hour minute chart touches', () => {
    expect([...planSeries(request(Granularity.MINUTE, '2026-03-10T14:05:00Z', '2026-03-10T15:05:00Z')).hours]).toEqual([
      14, 15,
    ]);
    expect([...planSeries(request(Granularity.MINUTE, '2026-03-10T14:00:00Z', '2026-03-10T15:00:00Z')).hours]).toEqual([
      14,
    ]);
  });
});

describe('hoursTouched', () => {
  it.each([
    ['2025-12-31T23:30:00Z', '2026-01-01T00:30:00Z', [23, 0]],
    ['2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', [0]],
    ['2026-01-01T05:59:00Z', '2026-01-02T05:59:00Z', Array.from({ length: 24 }, (_, h) => (h + 5) % 24)],
  ])('[%s, %s) touches hours %j', (from, to, hours) => {
    expect([...hoursTouched(ms(from), ms(to))]).toEqual(hours);
  });
});
