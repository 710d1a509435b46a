import {
  HOURLY_SCHEDULE,
  PreallocationPlanner,
  preallocationSlotMs,
  tomorrow,
} from '../../../src/ingest/PreallocationPlanner';

const ms = (iso: string): number => Date.parse(iso);
const HOUR = 3_600_000;

/**
 * Slots as every process must compute them, worked out once (and checked by an independent FNV-1a over UTF-16
 * code units): a change of hash, of text encoding or of runtime fails here, not in production, where two
 * versions would preallocate the same page at different times.
 */
const PINNED_SLOTS: ReadonlyArray<readonly [site: string, page: string, dailyMs: number, hourlyMs: number]> = [
  ['example.com', '/', 78_990_539, 2_861_976],
  ['example.com', '/a', 50_277_878, 1_821_662],
  ['example.com', '/pricing?x=1', 1_035_060, 37_502],
  ['s', '/p0', 9_895_853, 358_545],
  ['s', '/p1', 9_572_408, 346_826],
  ['blog.example.org', '/2026/03/10/héllo', 59_379_430, 2_151_428],
  ['a', '/\u{1F600}', 56_000_551, 2_029_005],
  ['', '', 1_632_808, 59_159],
];

describe('preallocationSlotMs', () => {
  it.each(PINNED_SLOTS)(
    'puts (%j, %j) at %d ms of the day and %d ms of the hour, in every process',
    (site, page, dailyMs, hourlyMs) => {
      expect(preallocationSlotMs(site, page)).toBe(dailyMs);
      expect(preallocationSlotMs(site, page, HOURLY_SCHEDULE.slotSpanMs)).toBe(hourlyMs);
    },
  );

  it('stays within [00:00, 23:00)', () => {
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

  it('forgets the pages of a site or one page being deleted', () => {
    const planner = new PreallocationPlanner(100);
    const day = ms('2026-03-10T00:00:00Z');
    for (const [site, page] of [
      ['s', '/a'],
      ['s', '/b'],
      ['s2', '/a'],
      ['t', '/a'],
    ] as const) {
      planner.noteHit(site, page, day + 1);
    }
    planner.forget('s', '/a');
    expect(planner.trackedPages).toBe(3);
    planner.forget('s');
    expect(planner.trackedPages).toBe(2);
    expect(planner.due(day + 23 * 3_600_000)).toEqual([
      { site: 's2', page: '/a' },
      { site: 't', page: '/a' },
    ]);
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
