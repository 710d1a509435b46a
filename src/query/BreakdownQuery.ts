/**
 * breakdown (issue 20): one dimension's values ranked by hits over the UTC days covering the range's local days,
 * as a Relay connection. parse validates the arguments into the request the DataLoader batches (the counters come
 * from the same finds as the request's series); rank orders the totals, pages them by keyset and counts exactly:
 * every value of the span is summed anyway, so `totalCount` is free. `(other)` (the writers' overflow key) is not a
 * value: its hits are reported beside the edges.
 */
import type { Dimension } from '../domain/dimensions/Dimension';
import { dimensionValue } from '../domain/dimensions/dimensionKey';
import { parsePage } from '../domain/parsePage';
import { parseSite } from '../domain/parseSite';
import { SITE_TOTAL_PAGE } from '../domain/siteTotal';
import { BadUserInputError } from '../errors/BadUserInputError';
import type { BreakdownRequest } from './Breakdown';
import type { VisitCounts } from './visitCounts';
import { compareBreakdownRows, decodeBreakdownCursor, encodeBreakdownCursor } from './breakdownCursor';
import type { ValueHits } from './breakdownCursor';
import { countedDays } from './countedDays';
import { connection } from './ImpressionQueries';
import type { ImpressionConnection } from './ImpressionQueries';
import { parseTimeZone } from './parseTimeZone';
import { OTHER } from '../domain/dimensions/dimensionMarkers';
import { retentionCutoffs } from '../time/retentionCutoffs';
import type { RetentionCutoffs, RetentionSettings } from '../time/retentionCutoffs';
import { spanDropped } from './retainedDetail';

export interface BreakdownArgs {
  readonly site: string;
  /** Absent: the site's totals. */
  readonly page?: string | null | undefined;
  readonly dimension: Dimension;
  readonly from: Date;
  readonly to: Date;
  readonly timeZone?: string | null | undefined;
  /** Absent: every value (export). */
  readonly first?: number | undefined;
  readonly after?: string | null | undefined;
  /** Visitors per value were asked for. */
  readonly visitors: boolean;
  /** Visit figures per value were asked for (kept for site totals only). */
  readonly visits?: boolean | undefined;
  /** The server clock: days dropped by RETENTION_DAYS at this instant are refused; absent: no check. */
  readonly now?: number | undefined;
}

export interface BreakdownLimits {
  readonly maxPageSize: number;
  /** Largest number of days a breakdown may span. */
  readonly maxDays: number;
  /** Dimensions whose site documents keep per-value sketches (DIMENSION_VISITORS). */
  readonly dimensionVisitors: ReadonlySet<Dimension>;
  /** RETENTION_MINUTES_DAYS and RETENTION_DAYS; absent: everything is kept. */
  readonly retention?: RetentionSettings | undefined;
}

export interface ParsedBreakdown {
  readonly request: BreakdownRequest;
  readonly first: number;
  readonly after?: ValueHits | undefined;
}

export interface BreakdownRow extends ValueHits {
  /** Distinct visitors with this value; null where per-value sketches are not kept (or were not asked for). */
  readonly visitors: number | null;
  /** The value's visit counters (site totals, when asked for); null elsewhere. */
  readonly visits?: VisitCounts | null | undefined;
}

export interface BreakdownResult extends ImpressionConnection<BreakdownRow> {
  /** Values with at least one hit in the span, `(other)` not counted. */
  readonly totalCount: number;
  /** Hits counted under `(other)`. */
  readonly other: number;
  /** The counted span: UTC midnights. */
  readonly from: number;
  readonly to: number;
}

/** What rank needs: counts per stored key, optionally visitors per key, and the span they were counted over. */
export interface RankedTotals {
  readonly request: { readonly from: number; readonly to: number };
  readonly hits: ReadonlyMap<string, number>;
  readonly visitorsOf?: ((key: string) => number) | undefined;
  readonly visitsOf?: ((key: string) => VisitCounts) | undefined;
}

export class BreakdownQuery {
  constructor(private readonly limits: BreakdownLimits) {}

  parse(args: BreakdownArgs): ParsedBreakdown {
    const site = parseSite(args.site);
    const page = args.page == null ? SITE_TOTAL_PAGE : parsePage(args.page);
    const zone = parseTimeZone(args.timeZone);
    const first = args.first === undefined ? Number.MAX_SAFE_INTEGER : this.parseFirst(args.first);
    const after = args.after == null ? undefined : decodeBreakdownCursor(args.after);
    const days = countedDays(zone, args.from, args.to, {
      maxDays: this.limits.maxDays,
      field: 'breakdown',
      setting: 'QUERY_MAX_BUCKETS',
    });
    if (args.now !== undefined && this.limits.retention !== undefined) {
      checkRetainedDays(days.utcFrom, days.utcTo, retentionCutoffs(args.now, this.limits.retention));
    }
    const visitors = args.visitors && page === SITE_TOTAL_PAGE && this.limits.dimensionVisitors.has(args.dimension);
    return {
      request: {
        site,
        page,
        dimension: args.dimension,
        from: days.utcFrom,
        to: days.utcTo,
        visitors,
        ...(args.visits === true && page === SITE_TOTAL_PAGE ? { visits: true } : {}),
      },
      first,
      after,
    };
  }

  /** Ranks any totals of keys over a span (a breakdown's, or events' and properties' counts: EventQueries). */
  rank(totals: RankedTotals, { first, after }: Pick<ParsedBreakdown, 'first' | 'after'>): BreakdownResult {
    let other = 0;
    let totalCount = 0;
    const following: Row[] = [];
    for (const [key, hits] of totals.hits) {
      if (hits <= 0) continue;
      if (key === OTHER) {
        other += hits;
        continue;
      }
      totalCount++;
      const row = new Row(key, hits);
      if (!after || compareBreakdownRows(row, after) > 0) following.push(row);
    }
    const rows = firstRanked(following, first + 1);
    const { visitorsOf, visitsOf } = totals;
    const page = rows.map(({ key, value, hits }, i) => ({
      value,
      hits,
      // Merged only for the page returned (and the extra row is never shown).
      visitors: visitorsOf && i < first ? visitorsOf(key) : null,
      visits: visitsOf && i < first ? visitsOf(key) : null,
    }));
    return {
      ...connection(page, first, encodeBreakdownCursor),
      totalCount,
      other,
      from: totals.request.from,
      to: totals.request.to,
    };
  }

  parseFirst(first: number): number {
    if (!Number.isSafeInteger(first) || first < 1 || first > this.limits.maxPageSize) {
      throw new BadUserInputError(
        `first must be an integer from 1 to ${this.limits.maxPageSize} (TOP_PAGES_MAX_PAGE), got ${first}`,
        'first',
      );
    }
    return first;
  }
}

/**
 * A value's stored key and hits; the value itself (the key unescaped, about 1 µs) is worked out when first read: a
 * 30-day breakdown of a long tail holds tens of thousands of keys, and ranking reads the values of ties only.
 */
class Row implements ValueHits {
  private unescaped: string | undefined;

  constructor(
    readonly key: string,
    readonly hits: number,
  ) {}

  get value(): string {
    return (this.unescaped ??= valueOf(this.key));
  }
}

/**
 * The `count` first rows in ranking order. A breakdown over many days can hold tens of thousands of values for a
 * page of ten: keep the best `count` in a sorted buffer (binary insertion) instead of sorting them all.
 */
export function firstRanked<T extends ValueHits>(rows: readonly T[], count: number): T[] {
  if (count * 8 >= rows.length) return [...rows].sort(compareBreakdownRows).slice(0, count);
  const best: T[] = [];
  for (const row of rows) {
    if (best.length === count && compareBreakdownRows(row, best[count - 1] as T) >= 0) continue;
    let low = 0;
    let high = best.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareBreakdownRows(best[middle] as T, row) <= 0) low = middle + 1;
      else high = middle;
    }
    best.splice(low, 0, row);
    if (best.length > count) best.pop();
  }
  return best;
}

/** A stored key's value; a key no writer of ours makes is shown as stored rather than failing the ranking. */
function valueOf(key: string): string {
  // Every escape starts with "%", and keys never hold "." or "$": without one the key is the value (most keys).
  if (!key.includes('%')) return key;
  try {
    return dimensionValue(key);
  } catch {
    return key;
  }
}

/**
 * A breakdown sums whole months from monthly documents and the other days from daily documents: one of those days
 * dropped by RETENTION_DAYS would count as nothing, so the breakdown is refused instead (null with an error; the
 * dashboard's other panels answer), saying which span still answers: from the cutoff on, or whole UTC months.
 */
function checkRetainedDays(from: number, to: number, cutoffs: RetentionCutoffs): void {
  if (!spanDropped(from, to, cutoffs)) return;
  const first = new Date(cutoffs.daysFrom).toISOString();
  throw new BadUserInputError(
    `breakdown counts days before ${first} whose daily documents RETENTION_DAYS dropped, got a span from ` +
      `${new Date(from).toISOString()}; start the range at ${first}, or count only whole UTC months before it`,
    'range',
  );
}
