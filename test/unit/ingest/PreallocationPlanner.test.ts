import { PreallocationPlanner, preallocationSlotMs, tomorrow } from '../../../src/ingest/PreallocationPlanner';

const ms = (iso: string): number => Date.parse(iso);
const HOUR = 3_600_000;

describe('preallocationSlotMs', () => {
  it('is the same for the same page in every process and within [00:00, 23:00)', () => {
    expect(preallocationSlotMs('example.com', '/a')).toBe(preallocationSlotMs('example.com', '/a'));
    for (let i = 0; i < 1000; i++) {
      const slot = preallocationSlotMs('example.com', `/page/${i}`);
      expect(slot).toBeGreaterThanOrEqual(0);
      expect(slot).toBeLessThan(23 * HOUR);
    }
  });

  it('spreads pages evenly over the day (no midnight burst)', () => {
    const perHour = new Array<number>(23).fill(0);
    for (let i = 0; i < 23_000; i++) perHour[Math.floor(preallocationSlotMs('s', `/p${i}`) / HOUR)]! += 1;
    expect(Math.min(...perHour)).toBeGreaterThan(800);
    expect(Math.max(...perHour)).toBeLessThan(1200);
  });
});

describe('PreallocationPlanner', () => {
  it('returns an active page once its slot has passed, and only once a day', () => {
    const planner = new PreallocationPlanner(100);
    const day = ms('2026-03-10T00:00:00Z');
    const slot = day + preallocationSlotMs('s', '/a');
    planner.noteHit('s', '/a', day + 1);
    expect(planner.due(slot - 1)).toEqual([]);
    expect(planner.due(slot)).toEqual([{ site: 's', page: '/a' }]);
    planner.noteHit('s', '/a', slot + 1);
    expect(planner.due(slot + 2)).toEqual([]);
  });

  it('preallocates a page first seen after its slot at the next tick', () => {
    const planner = new PreallocationPlanner(100);
    planner.noteHit('s', '/late', ms('2026-03-10T23:30:00Z'));
    expect(planner.due(ms('2026-03-10T23:31:00Z'))).toEqual([{ site: 's', page: '/late' }]);
  });

  it('forgets yesterday at midnight', () => {
    const planner = new PreallocationPlanner(100);
    planner.noteHit('s', '/a', ms('2026-03-10T01:00:00Z'));
    expect(planner.due(ms('2026-03-11T23:59:00Z'))).toEqual([]);
    expect(planner.trackedPages).toBe(0);
  });

  it('stops tracking new pages at its bound', () => {
    const planner = new PreallocationPlanner(2);
    for (const page of ['/a', '/b', '/c']) planner.noteHit('s', page, ms('2026-03-10T01:00:00Z'));
    expect(planner.trackedPages).toBe(2);
  });

  it('targets the next UTC day', () => {
    expect(new Date(tomorrow(ms('2024-02-28T23:59:59Z'))).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(new Date(tomorrow(ms('2025-12-31T10:00:00Z'))).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });
});
