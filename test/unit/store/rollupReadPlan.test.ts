import { rollupReadPlan } from '../../../src/store/rollupReadPlan';
import type { MonthRollupCounts } from '../../../src/store/rollupReadPlan';

const day = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);
const days = (from: string, to: string): number[] => {
  const list: number[] = [];
  for (let d = day(from); d <= day(to); d += 86_400_000) list.push(d);
  return list;
};
const month = (counts: Record<string, number>, complete = true): MonthRollupCounts => ({
  total: Object.values(counts).reduce((a, b) => a + b, 0),
  days: counts,
  complete,
});
const iso = (list: readonly number[]): string[] => list.map((d) => new Date(d).toISOString().slice(0, 10));

describe('rollupReadPlan', () => {
  const last30 = days('2026-10-29', '2026-11-27');

  it('reads a month through today whole and the days of the month before from their documents', () => {
    const months = new Map([
      [day('2026-10-01'), month({ 28: 5, 30: 7 })],
      [day('2026-11-01'), month({ 1: 3, 27: 9 })],
    ]);
    const plan = rollupReadPlan(last30, 0, months, { wholeMonths: true });
    expect(iso(plan.wholeMonths)).toEqual(['2026-11-01']);
    // October 28 has hits but lies outside the range: October is read by day.
    expect(iso(plan.dayDocuments)).toEqual(['2026-10-30']);
    expect(iso(plan.emptyDays)).toEqual(['2026-10-29', '2026-10-31']);
    expect(plan.earlierDays).toEqual([]);
  });

  it.each([
    ['a month whose pages do not add up', month({ 1: 3 }, false)],
    ['a month with hits after the range', month({ 1: 3, 28: 1 })],
  ])('reads %s by day', (_label, counts) => {
    const plan = rollupReadPlan(last30, 0, new Map([[day('2026-11-01'), counts]]), { wholeMonths: true });
    expect(plan.wholeMonths).toEqual([]);
    expect(iso(plan.dayDocuments)).toEqual(['2026-11-01']);
    // Days of October without a month document, and November's days without hits, are empty.
    expect(plan.emptyDays).toHaveLength(29);
  });

  it('never reads months whole where per-day answers are asked for', () => {
    const plan = rollupReadPlan(last30, 0, new Map([[day('2026-11-01'), month({ 1: 3 })]]), { wholeMonths: false });
    expect(plan.wholeMonths).toEqual([]);
    expect(iso(plan.dayDocuments)).toEqual(['2026-11-01']);
  });

  it('leaves every day to the earlier documents without a marker', () => {
    const plan = rollupReadPlan(last30, undefined, new Map(), { wholeMonths: true });
    expect(plan.earlierDays).toEqual(last30);
    expect([...plan.wholeMonths, ...plan.emptyDays, ...plan.dayDocuments]).toEqual([]);
  });

  it('vouches for days from the marker on, and never for the whole month it falls in', () => {
    const months = new Map([[day('2026-11-01'), month({ 2: 4, 20: 1, 21: 2 })]]);
    const plan = rollupReadPlan(days('2026-11-01', '2026-11-27'), day('2026-11-20'), months, { wholeMonths: true });
    expect(iso(plan.earlierDays)).toEqual(iso(days('2026-11-01', '2026-11-19')));
    expect(plan.wholeMonths).toEqual([]);
    expect(iso(plan.dayDocuments)).toEqual(['2026-11-20', '2026-11-21']);
    expect(plan.emptyDays).toHaveLength(6);
  });

  it.each([
    ['across a year end', days('2026-12-30', '2027-01-02'), { '2026-12-01': { 31: 1 }, '2027-01-01': { 1: 2, 2: 3 } }],
    ['over a leap day', days('2028-02-28', '2028-03-01'), { '2028-02-01': { 28: 1, 29: 2 }, '2028-03-01': { 1: 1 } }],
  ])('reads each month whole %s when the range holds all its hits', (_label, range, counts) => {
    const months = new Map(Object.entries(counts).map(([start, c]) => [day(start), month(c)]));
    const plan = rollupReadPlan(range, 0, months, { wholeMonths: true });
    expect(iso(plan.wholeMonths)).toEqual(Object.keys(counts));
    expect(plan.dayDocuments).toEqual([]);
  });

  it('counts a day asked for twice once', () => {
    const plan = rollupReadPlan([day('2026-11-02'), day('2026-11-02')], 0, new Map(), { wholeMonths: true });
    expect(iso(plan.emptyDays)).toEqual(['2026-11-02']);
  });
});
