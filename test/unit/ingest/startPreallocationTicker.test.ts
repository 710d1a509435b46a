import { createLogger } from '../../../src/logging/createLogger';
import type { PageRef } from '../../../src/ingest/PreallocationPlanner';
import { HOURLY_SCHEDULE, PreallocationPlanner, preallocationSlotMs } from '../../../src/ingest/PreallocationPlanner';
import { startPreallocationTicker } from '../../../src/ingest/startPreallocationTicker';

const ms = (iso: string): number => Date.parse(iso);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const START = ms('2026-03-10T14:00:00Z');

interface Call {
  readonly pages: PageRef[];
  readonly periodStart: string;
}

/** A ticker on fake time over a real planner, recording each preallocate call. */
function ticker(
  planner: PreallocationPlanner,
  options: { fail?: number; tickMs?: number; pagesPerWrite?: number; watched?: string[] } = {},
) {
  const calls: Call[] = [];
  let failures = options.fail ?? 0;
  const logger = createLogger({ level: 'silent', nodeEnv: 'test' });
  const warn = jest.spyOn(logger, 'warn');
  const handle = startPreallocationTicker({
    planner,
    preallocate: async (pages, periodStart) => {
      calls.push({ pages, periodStart: new Date(periodStart).toISOString() });
      if (failures-- > 0) throw new Error('database unavailable');
    },
    what: 'the test pages',
    pagesPerWrite: options.pagesPerWrite ?? 500,
    clock: () => Date.now(),
    logger,
    ...(options.tickMs ? { tickMs: options.tickMs } : {}),
    ...(options.watched
      ? {
          watch: <T>(what: string, step: () => Promise<T>): Promise<T> => {
            options.watched?.push(what);
            return step();
          },
        }
      : {}),
  });
  return { calls, warn, handle };
}

beforeEach(() => {
  jest.useFakeTimers();
  jest.setSystemTime(START);
});
afterEach(() => jest.useRealTimers());

describe('startPreallocationTicker', () => {
  it('preallocates an active page at the first minute tick after its slot, for the next period, and once only', async () => {
    const planner = new PreallocationPlanner(10, HOURLY_SCHEDULE);
    planner.noteHit('s', '/a', START);
    const slot = preallocationSlotMs('s', '/a', HOURLY_SCHEDULE.slotSpanMs);
    const firstTickAfterSlot = Math.max(1, Math.ceil(slot / MINUTE)) * MINUTE;
    const { calls, handle } = ticker(planner);
    await jest.advanceTimersByTimeAsync(firstTickAfterSlot - MINUTE);
    expect(calls).toEqual([]);
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(calls).toEqual([{ pages: [{ site: 's', page: '/a' }], periodStart: '2026-03-10T15:00:00.000Z' }]);
    await jest.advanceTimersByTimeAsync(HOUR - firstTickAfterSlot - 1);
    expect(calls).toHaveLength(1);
    handle.stop();
  });

  it('sends the pages due at one tick in writes of at most pagesPerWrite pages, each one a watched step', async () => {
    const planner = new PreallocationPlanner(2_000);
    for (let i = 0; i < 1_200; i++) planner.noteHit('s', `/p${i}`, START);
    // One tick at 23:00 UTC, when every slot of the day has passed.
    const watched: string[] = [];
    const tickMs = ms('2026-03-10T23:00:00Z') - START;
    const { calls, handle } = ticker(planner, { tickMs, pagesPerWrite: 500, watched });
    // A moment past the tick: the ticker yields between writes.
    await jest.advanceTimersByTimeAsync(tickMs + 1_000);
    expect(calls.map((call) => call.pages.length)).toEqual([500, 500, 200]);
    expect(new Set(calls.map((call) => call.periodStart))).toEqual(new Set(['2026-03-11T00:00:00.000Z']));
    expect(watched).toEqual([
      'preallocating the test pages for 500 pages',
      'preallocating the test pages for 500 pages',
      'preallocating the test pages for 200 pages',
    ]);
    handle.stop();
  });

  it('ends a tick in progress at its next write once stopped', async () => {
    const planner = new PreallocationPlanner(2_000);
    for (let i = 0; i < 1_200; i++) planner.noteHit('s', `/p${i}`, START);
    const tickMs = ms('2026-03-10T23:00:00Z') - START;
    const calls: number[] = [];
    const handle = startPreallocationTicker({
      planner,
      preallocate: async (pages) => {
        calls.push(pages.length);
        // Stopped while its first write is under way.
        if (calls.length === 1) handle.stop();
      },
      what: 'the test pages',
      pagesPerWrite: 100,
      clock: () => Date.now(),
      logger: createLogger({ level: 'silent', nodeEnv: 'test' }),
      tickMs,
    });
    await jest.advanceTimersByTimeAsync(tickMs + MINUTE);
    expect(calls).toEqual([100]);
  });

  it('logs a failed tick as a warning and keeps ticking', async () => {
    // 23:00 UTC: every daily slot has passed, so a page is due at the first tick after its first hit.
    jest.setSystemTime(ms('2026-03-10T23:00:00Z'));
    const planner = new PreallocationPlanner(10);
    planner.noteHit('s', '/a', Date.now());
    const { calls, warn, handle } = ticker(planner, { fail: 1 });
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(warn).toHaveBeenCalledWith(
      { err: new Error('database unavailable') },
      'preallocation of the test pages failed; upserts still create documents',
    );
    planner.noteHit('s', '/b', Date.now());
    await jest.advanceTimersByTimeAsync(MINUTE);
    expect(calls.map((call) => call.pages)).toEqual([[{ site: 's', page: '/a' }], [{ site: 's', page: '/b' }]]);
    expect(warn).toHaveBeenCalledTimes(1);
    handle.stop();
  });

  it('stops ticking when stopped', async () => {
    // As above: a page due at the first tick, which never comes.
    jest.setSystemTime(ms('2026-03-10T23:00:00Z'));
    const planner = new PreallocationPlanner(10);
    planner.noteHit('s', '/a', Date.now());
    const { calls, handle } = ticker(planner);
    handle.stop();
    await jest.advanceTimersByTimeAsync(10 * MINUTE);
    expect(calls).toEqual([]);
    expect(planner.due(Date.now())).toEqual([{ site: 's', page: '/a' }]);
  });
});
