/**
 * Which counter documents have sketch registers or dimension counters to compact (compactPastPeriods), and from
 * when: a document is nominated by a write that ORs registers or counts dimension values into it and by a read that
 * finds register fields or dimension counters in it, and falls due COMPACTION_DELAY_MS after its period ends (late
 * hits of a closing day mostly arrive by then; any later still read right, and nominate the document again). Per process and bounded: a full set takes no more nominations,
 * which only leaves documents uncompacted (reads merge both forms) until a read nominates them.
 */
import { addMonths, DAY_MS } from '../time/buckets';
import type { CompactedLevel } from './compactPastPeriods';

export const COMPACTION_DELAY_MS = 15 * 60_000;
/** Ids held per level at most (about 100 bytes each). */
export const MAX_NOMINATED = 100_000;

export class CompactionNominations {
  private readonly due: Record<CompactedLevel, Map<string, number>> = { daily: new Map(), monthly: new Map() };

  constructor(private readonly limit: number = MAX_NOMINATED) {}

  /** `periodStart`: the document's metadata.date. */
  nominate(level: CompactedLevel, id: string, periodStart: number): void {
    const due = this.due[level];
    if (due.has(id) || due.size >= this.limit) return;
    const end = level === 'daily' ? periodStart + DAY_MS : addMonths(periodStart, 1);
    due.set(id, end + COMPACTION_DELAY_MS);
  }

  /** The ids due at `now`, removed; give back what could not be compacted (restore). */
  take(level: CompactedLevel, now: number): string[] {
    const due = this.due[level];
    const ids: string[] = [];
    for (const [id, at] of due) if (at <= now) ids.push(id);
    for (const id of ids) due.delete(id);
    return ids;
  }

  /** Puts ids taken at `now` back, due at once. */
  restore(level: CompactedLevel, ids: readonly string[], now: number): void {
    const due = this.due[level];
    for (const id of ids) if (due.size < this.limit || due.has(id)) due.set(id, now);
  }

  size(level: CompactedLevel): number {
    return this.due[level].size;
  }
}
