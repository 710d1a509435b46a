/**
 * Decides when to preallocate the next period's documents for the pages active in this one: tomorrow's daily
 * and monthly documents (a day period), or the next hour's 60 second-level minute documents (an hour period).
 * Each page has a fixed slot in the period (for a day, [00:00, 23:00) UTC) taken from a hash of (site, page),
 * the same in every process: preallocation is spread evenly over the period (no burst at its end), each active
 * page is preallocated once per process per period, and a page first seen after its slot is preallocated at
 * the next tick. The seeds' random 1/h per hit instead misses about 1/e (37%) of pages that get h hits, and
 * repeats calls for busier ones.
 */
import { DAY_MS, HOUR_MS, MINUTE_MS, startOfDay } from '../time/buckets';

export interface PageRef {
  readonly site: string;
  readonly page: string;
}

export interface PreallocationSchedule {
  /** A fixed-width UTC period (a day or an hour): pages active in one are preallocated for the next. */
  readonly periodMs: number;
  /** Slots fall in [0, slotSpanMs) of the period; the rest is margin before the next period begins. */
  readonly slotSpanMs: number;
}

export const DAILY_SCHEDULE: PreallocationSchedule = { periodMs: DAY_MS, slotSpanMs: 23 * HOUR_MS };
export const HOURLY_SCHEDULE: PreallocationSchedule = { periodMs: HOUR_MS, slotSpanMs: 50 * MINUTE_MS };

export function preallocationSlotMs(site: string, page: string, slotSpanMs = DAILY_SCHEDULE.slotSpanMs): number {
  // FNV-1a, 32 bits: cheap, stable across processes and runtimes (unlike a salted hash).
  let hash = 0x811c9dc5;
  const text = `${site}\u0000${page}`;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return Math.floor((hash / 0x1_0000_0000) * slotSpanMs);
}

interface Tracked extends PageRef {
  readonly slot: number;
}

export class PreallocationPlanner {
  private period = Number.NaN;
  /** Active this period, not yet preallocated for the next, keyed by site\0page. */
  private readonly waiting = new Map<string, Tracked>();
  private readonly done = new Set<string>();

  constructor(
    private readonly maxTrackedPages: number,
    private readonly schedule: PreallocationSchedule = DAILY_SCHEDULE,
  ) {}

  noteHit(site: string, page: string, now: number): void {
    this.rollOver(now);
    const key = `${site}\u0000${page}`;
    if (this.done.has(key) || this.waiting.has(key)) return;
    if (this.waiting.size + this.done.size >= this.maxTrackedPages) return;
    this.waiting.set(key, {
      site,
      page,
      slot: this.period + preallocationSlotMs(site, page, this.schedule.slotSpanMs),
    });
  }

  /** Pages whose slot has passed; each is returned once per period. Preallocate them for `nextPeriod(now)`. */
  due(now: number): PageRef[] {
    this.rollOver(now);
    const due: PageRef[] = [];
    for (const [key, tracked] of this.waiting) {
      if (tracked.slot <= now) {
        due.push({ site: tracked.site, page: tracked.page });
        this.waiting.delete(key);
        this.done.add(key);
      }
    }
    return due;
  }

  /** Stops tracking a site's pages (`page` absent) or one page: its data is being deleted (issue 30). */
  forget(site: string, page?: string): void {
    const prefix = `${site}\u0000`;
    const gone = (key: string): boolean => (page === undefined ? key.startsWith(prefix) : key === `${prefix}${page}`);
    for (const key of [...this.waiting.keys()]) if (gone(key)) this.waiting.delete(key);
    for (const key of [...this.done]) if (gone(key)) this.done.delete(key);
  }

  get trackedPages(): number {
    return this.waiting.size + this.done.size;
  }

  /** Start of the period after the one holding `now`. */
  nextPeriod(now: number): number {
    return periodStart(now, this.schedule.periodMs) + this.schedule.periodMs;
  }

  private rollOver(now: number): void {
    const current = periodStart(now, this.schedule.periodMs);
    if (current === this.period) return;
    this.period = current;
    this.waiting.clear();
    this.done.clear();
  }
}

export function tomorrow(now: number): number {
  return startOfDay(now) + DAY_MS;
}

function periodStart(now: number, periodMs: number): number {
  return now - (((now % periodMs) + periodMs) % periodMs);
}
