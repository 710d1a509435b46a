import { HOURLY_SCHEDULE, PreallocationPlanner, preallocationSlotMs } from '../../../src/ingest/PreallocationPlanner';

const ms = (iso: string): number => Date.parse(iso);
const MINUTE = 60_000;

describe('hourly preallocation slots (second-level minute documents)', () => {
  it('puts every page in the first 50 minutes of the hour (PreallocationPlanner.test.ts pins exact slots)', () => {
    for (let i = 0; i < 1000; i++) {
      const slot = preallocationSlotMs('s', `/p${i}`, HOURLY_SCHEDULE.slotSpanMs);
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(slot).toBeLessThan(50 * MINUTE);
    }
  });

  it('spreads pages evenly over the 50 minutes (no burst before the hour)', () => {
    const perMinute = new Array<number>(50).fill(0);
    for (let i = 0; i < 50_000; i++) {
      perMinute[Math.floor(preallocationSlotMs('s', `/p${i}`, HOURLY_SCHEDULE.slotSpanMs) / MINUTE)]! += 1;
    }
    expect(Math.min(...perMinute)).toBeGreaterThan(750);
    expect(Math.max(...perMinute)).toBeLessThan(1250);
  });

  it.each([
    ['2026-03-10T14:00:00.000Z', '2026-03-10T15:00:00.000Z'],
    ['2026-03-10T14:59:59.999Z', '2026-03-10T15:00:00.000Z'],
    ['2025-12-31T23:30:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['2024-02-29T23:00:00.000Z', '2024-03-01T00:00:00.000Z'],
  ])('at %s targets the hour starting %s', (now, next) => {
    expect(new Date(new PreallocationPlanner(10, HOURLY_SCHEDULE).nextPeriod(ms(now))).toISOString()).toBe(next);
  });

  it('returns an active page once per hour, at its slot, and forgets it when the hour ends', () => {
    const planner = new PreallocationPlanner(10, HOURLY_SCHEDULE);
    const hour = ms('2026-03-10T14:00:00Z');
    const slot = hour + preallocationSlotMs('s', '/a', HOURLY_SCHEDULE.slotSpanMs);
    planner.noteHit('s', '/a', hour + 1);
    expect(planner.due(slot - 1)).toEqual([]);
    expect(planner.due(slot)).toEqual([{ site: 's', page: '/a' }]);
    planner.noteHit('s', '/a', slot + 1);
    expect(planner.due(hour + 59 * MINUTE)).toEqual([]);
    // Next hour: active again, due again.
    planner.noteHit('s', '/a', hour + 60 * MINUTE);
    expect(planner.due(hour + 60 * MINUTE + 50 * MINUTE)).toEqual([{ site: 's', page: '/a' }]);
  });

  it('keeps the daily schedule by default', () => {
    expect(new Date(new PreallocationPlanner(10).nextPeriod(ms('2026-03-10T14:00:00Z'))).toISOString()).toBe(
      '2026-03-11T00:00:00.000Z',
    );
  });
});
