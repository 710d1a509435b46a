/**
 * The documents one plan reads, by source and period start, and the extra fields it reads from each source; turned
 * into runs of consecutive documents (SeriesRead) for the batch's finds.
 */
import { addMonths, DAY_MS, MINUTE_MS } from '../time/buckets';
import type { ExtraFields } from '../store/statsExtras';
import type { CounterPiece } from './counterPieces';
import { mergeExtraFields } from './mergeExtraFields';
import { SOURCE_ORDER } from './SeriesRead';
import type { SeriesRead, SeriesSource } from './SeriesRead';

const NEXT_DOCUMENT: Readonly<Record<SeriesSource, (t: number) => number>> = {
  monthly: (t) => addMonths(t, 1),
  hourly: (t) => t + DAY_MS,
  minute: (t) => t + DAY_MS,
  seconds: (t) => t + MINUTE_MS,
};

export class DocumentNeeds {
  private readonly starts = new Map<SeriesSource, Set<number>>();
  private readonly extras = new Map<SeriesSource, Set<ExtraFields>>();
  /** For `minute`: the hours of the day whose minutes are needed. */
  readonly hours = new Set<number>();

  addCounter(piece: CounterPiece): void {
    this.add(piece.source, piece.doc);
    if (piece.source === 'minute') this.hours.add(piece.hour);
  }

  /** `extra`: pass one object for many documents; it is merged once per source. */
  add(source: SeriesSource, start: number, extra?: ExtraFields): void {
    let set = this.starts.get(source);
    if (!set) this.starts.set(source, (set = new Set()));
    set.add(start);
    if (extra === undefined) return;
    let extras = this.extras.get(source);
    if (!extras) this.extras.set(source, (extras = new Set()));
    extras.add(extra);
  }

  reads(site: string, page: string): SeriesRead[] {
    return SOURCE_ORDER.filter((source) => this.starts.has(source)).map((source) => ({
      source,
      ranges: runs([...(this.starts.get(source) as Set<number>)], NEXT_DOCUMENT[source]).map(([first, last]) => ({
        site,
        page,
        first,
        last,
      })),
      extra: mergeExtraFields(this.extras.get(source) ?? []),
    }));
  }
}

/** Sorted period starts grouped into [first, last] runs of consecutive periods. */
function runs(starts: number[], next: (t: number) => number): Array<[number, number]> {
  const sorted = starts.sort((a, b) => a - b);
  const result: Array<[number, number]> = [];
  for (const t of sorted) {
    const last = result[result.length - 1];
    if (last && next(last[1]) === t) last[1] = t;
    else result.push([t, t]);
  }
  return result;
}
