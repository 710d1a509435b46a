/**
 * Decides when to preallocate tomorrow's documents for the pages active today. Each page has a fixed slot in
 * [00:00, 23:00) UTC taken from a hash of (site, page), the same in every process: preallocation is spread
 * evenly over the day (no midnight burst), each active page is preallocated once per process per day, and a
 * page first seen after its slot is preallocated at the next tick. The seeds' random 1/h per hit instead
 * misses about 1/e (37%) of pages that get h hits, and repeats calls for busier ones.
 */
import { DAY_MS, HOUR_MS, startOfDay } from '../time/buckets';

export interface PageRef {
  readonly site: string;
  readonly page: string;
}

const SLOT_SPAN_MS = 23 * HOUR_MS;

export function preallocationSlotMs(site: string, page: string): number {
  // FNV-1a, 32 bits: cheap, stable across processes and runtimes (unlike a salted hash).
  let hash = 0x811c9dc5;
  const text = `${site}\u0000${page}`;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return Math.floor((hash / 0x1_0000_0000) * SLOT_SPAN_MS);
}

interface Tracked extends PageRef {
  readonly slot: number;
}

export class PreallocationPlanner {
  private day = Number.NaN;
  /** Active today, not yet preallocated for tomorrow, keyed by site\0page. */
  private readonly waiting = new Map<string, Tracked>();
  private readonly done = new Set<string>();

  constructor(private readonly maxTrackedPages: number) {}

  noteHit(site: string, page: string, now: number): void {
    this.rollOver(now);
    const key = `${site}\u0000${page}`;
    if (this.done.has(key) || this.waiting.has(key)) return;
    if (this.waiting.size + this.done.size >= this.maxTrackedPages) return;
    this.waiting.set(key, { site, page, slot: this.day + preallocationSlotMs(site, page) });
  }

  /** Pages whose slot has passed; each is returned once per day. Tomorrow's day start is `startOfDay(now) + DAY_MS`. */
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

  get trackedPages(): number {
    return this.waiting.size + this.done.size;
  }

  private rollOver(now: number): void {
    const today = startOfDay(now);
    if (today === this.day) return;
    this.day = today;
    this.waiting.clear();
    this.done.clear();
  }
}

export function tomorrow(now: number): number {
  return startOfDay(now) + DAY_MS;
}
