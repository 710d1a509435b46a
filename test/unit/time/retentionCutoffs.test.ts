import { RETENTION_GRACE_MS, retentionCutoffs } from '../../../src/time/retentionCutoffs';

const at = (iso: string): number => Date.parse(iso);
const day = (iso: string): number => Date.parse(`${iso}T00:00:00.000Z`);

describe('retentionCutoffs', () => {
  it.each([
    // now, N, first day kept (N + 1 days kept, today included)
    ['2026-03-10T12:00:00Z', 1, '2026-03-09'],
    ['2026-03-10T00:00:00Z', 1, '2026-03-09'],
    ['2026-03-09T23:59:59.999Z', 1, '2026-03-08'],
    // month end: 1 March looks back into February
    ['2026-03-01T00:00:00Z', 1, '2026-02-28'],
    ['2026-03-01T08:00:00Z', 30, '2026-01-30'],
    // leap day: 29 February exists in 2028
    ['2028-03-01T00:00:00Z', 1, '2028-02-29'],
    ['2028-03-01T23:00:00Z', 2, '2028-02-28'],
    ['2028-02-29T00:00:01Z', 365, '2027-03-01'],
    // year end
    ['2027-01-01T00:00:00Z', 1, '2026-12-31'],
    ['2026-12-31T23:59:59.999Z', 365, '2025-12-31'],
    ['2027-01-01T00:30:00Z', 7, '2026-12-25'],
  ])('at %s keeps the days from %s back (%i days) on', (now, days, first) => {
    expect(retentionCutoffs(at(now), { days })).toEqual({ daysFrom: day(first), minutesFrom: day(first) });
    expect(retentionCutoffs(at(now), { minutesDays: days })).toEqual({ daysFrom: -Infinity, minutesFrom: day(first) });
  });

  it('keeps everything when neither setting is there', () => {
    expect(retentionCutoffs(at('2026-03-10T12:00:00Z'), {})).toEqual({ minutesFrom: -Infinity, daysFrom: -Infinity });
  });

  it('drops minutes at their own cutoff and whole days at the later one', () => {
    expect(retentionCutoffs(at('2026-03-10T12:00:00Z'), { minutesDays: 7, days: 90 })).toEqual({
      minutesFrom: day('2026-03-03'),
      daysFrom: day('2025-12-10'),
    });
  });

  it('never keeps minute counters of a day whose document is dropped', () => {
    // Equal settings: the two cutoffs coincide.
    const cutoffs = retentionCutoffs(at('2026-03-10T12:00:00Z'), { minutesDays: 5, days: 5 });
    expect(cutoffs.minutesFrom).toBe(cutoffs.daysFrom);
  });

  it('lets the job drop a day only an hour after queries stopped reading it', () => {
    const midnight = at('2026-03-10T00:00:00Z');
    // Queries: at midnight day 8 March is already dropped.
    expect(retentionCutoffs(midnight, { days: 1 }).daysFrom).toBe(day('2026-03-09'));
    // The job, running at the same instant, still keeps 8 March; an hour later it drops it.
    const jobAt = (now: number): number => retentionCutoffs(now - RETENTION_GRACE_MS, { days: 1 }).daysFrom;
    expect(jobAt(midnight)).toBe(day('2026-03-08'));
    expect(jobAt(midnight + RETENTION_GRACE_MS - 1)).toBe(day('2026-03-08'));
    expect(jobAt(midnight + RETENTION_GRACE_MS)).toBe(day('2026-03-09'));
  });
});
