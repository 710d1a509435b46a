/**
 * topPages: every page of a site ranked by its hits in the DAY buckets (in the time zone) that intersect the
 * range, as a Relay connection. The range is split into stored counters exactly as a series bucket is
 * (counterPieces): whole UTC days from monthly documents, boundary hours and minutes from the boundary days' daily
 * documents, each source one streamed find over the site's documents on those dates. Cost grows with the number
 * of pages × documents per page in the range (docs/benchmarks.md), and since every page is summed anyway,
 * `totalCount` (pages with at least one hit) is exact and free. Visitors per page are not read here: the resolver
 * asks for the returned page of results only, through the request's DataLoader (spanVisitors).
 */
import { BadUserInputError } from '../errors/BadUserInputError';
import { parseSite } from '../domain/parseSite';
import type { SitePageDocument, SitePageFields } from '../store/SitePageScan';
import { counterPieces } from './counterPieces';
import { DAY_MS } from '../time/buckets';
import { counterPieceDropped, spanDropped } from './retainedDetail';
import { retentionCutoffs } from '../time/retentionCutoffs';
import type { RetentionSettings } from '../time/retentionCutoffs';
import { countedDays } from './countedDays';
import { connection } from './ImpressionQueries';
import type { ImpressionConnection } from './ImpressionQueries';
import { parseTimeZone } from './parseTimeZone';
import { storedCount } from './storedCount';
import { TopPagesOrder } from './TopPagesOrder';
import { compareTopPages, decodeTopPageCursor, encodeTopPageCursor } from './topPageCursor';
import type { PageHits } from './topPageCursor';

export interface SitePageReader {
  /**
   * Hits per page over whole UTC days from the site's page rollups (pageRollups), and which of the days they count:
   * the days whose rollups are complete.
   */
  pageTotals(site: string, days: readonly number[]): Promise<{ covered: Set<number>; pages: Map<string, number> }>;
  forEachPage(
    site: string,
    dates: readonly number[],
    fields: SitePageFields,
    onDocument: (doc: SitePageDocument) => void,
    options?: { readonly visits?: boolean },
  ): Promise<void>;
}

export interface TopPagesArgs {
  readonly site: string;
  readonly from: Date;
  readonly to: Date;
  readonly timeZone?: string | null | undefined;
  readonly first: number;
  readonly after?: string | null | undefined;
  /** The server clock: counters retention dropped at this instant are refused; absent: no check. */
  readonly now?: number | undefined;
  /** Rank by hits (default), or by visits entered or left on each page (issue 29). */
  readonly by?: TopPagesOrder | undefined;
}

export interface TopPagesResult extends ImpressionConnection<PageHits> {
  /** Pages with at least one hit in the range. */
  readonly totalCount: number;
  /** The days counted: start of the first, end of the last. */
  readonly from: number;
  readonly to: number;
  /**
   * The span pages' visitors are counted over (spanVisitors): the UTC days covering the counted days, the same days
   * where the zone's days are UTC days.
   */
  readonly visitorsFrom: number;
  readonly visitorsTo: number;
  /** Retention dropped day sketches of that span: pages' visitors have no answer (null, never a low guess). */
  readonly visitorsDropped: boolean;
}

export interface TopPagesLimits {
  readonly maxPageSize: number;
  /** Largest number of days a ranking may span. */
  readonly maxDays: number;
  /** RETENTION_MINUTES_DAYS and RETENTION_DAYS; absent: everything is kept. */
  readonly retention?: RetentionSettings | undefined;
}

export class TopPagesQuery {
  constructor(
    private readonly reader: SitePageReader,
    private readonly limits: TopPagesLimits,
  ) {}

  async topPages(args: TopPagesArgs): Promise<TopPagesResult> {
    const site = parseSite(args.site);
    const zone = parseTimeZone(args.timeZone);
    const first = this.parseFirst(args.first);
    const after = args.after == null ? undefined : decodeTopPageCursor(args.after);
    const { from, to, utcFrom, utcTo } = countedDays(zone, args.from, args.to, {
      maxDays: this.limits.maxDays,
      field: 'topPages',
      setting: 'QUERY_MAX_BUCKETS',
    });
    const cutoffs =
      args.now !== undefined && this.limits.retention !== undefined
        ? retentionCutoffs(args.now, this.limits.retention)
        : undefined;
    if (cutoffs !== undefined) {
      // UTC days come from months (always kept); a zone's boundary hours and minutes from daily documents.
      if (counterPieces(from, to).some((piece) => counterPieceDropped(piece, cutoffs))) {
        throw new BadUserInputError(
          `topPages in ${zone} reads hours or minutes of days whose counters retention dropped ` +
            `(RETENTION_DAYS, RETENTION_MINUTES_DAYS), got a range from ${args.from.toISOString()}; ` +
            'use timeZone "UTC" or a range of kept days',
          'range',
        );
      }
    }
    const by = args.by ?? TopPagesOrder.HITS;
    if (by !== TopPagesOrder.HITS && counterPieces(from, to).some((piece) => piece.source === 'minute')) {
      throw new BadUserInputError(
        `topPages by ${by} counts visits, kept per UTC hour, and days in ${zone} start inside an hour; ` +
          'use a time zone whose offset is whole hours',
        'timeZone',
      );
    }
    const totals = await this.sumPages(site, from, to, by);
    const ranked = [...totals]
      .filter(([, hits]) => hits > 0)
      .map(([page, hits]) => ({ page, hits }))
      .sort(compareTopPages);
    const start = after ? ranked.findIndex((row) => compareTopPages(row, after) > 0) : 0;
    const rows = start < 0 ? [] : ranked.slice(start, start + first + 1);
    return {
      ...connection(rows, first, encodeTopPageCursor),
      totalCount: ranked.length,
      from,
      to,
      visitorsFrom: utcFrom,
      visitorsTo: utcTo,
      visitorsDropped: cutoffs !== undefined && spanDropped(utcFrom, utcTo, cutoffs),
    };
  }

  /**
   * Hits per page over [from, to): whole UTC days from the site's page rollups where they are complete (a month
   * document for a month the range holds every day with hits of, else day documents), the rest from the pages' own
   * documents, one streamed find per stored level that still needs reading.
   */
  private async sumPages(site: string, from: number, to: number, by: TopPagesOrder): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    const pieces = counterPieces(from, to);
    const days = pieces.flatMap((piece) => (piece.source === 'monthly' ? [dayOf(piece)] : []));
    // The rollup counts hits; entries and exits are read from the pages' own visit counters.
    const field = by === TopPagesOrder.ENTRIES ? 'e' : by === TopPagesOrder.EXITS ? 'x' : undefined;
    const rollups = field === undefined ? await this.reader.pageTotals(site, days) : undefined;
    for (const [page, hits] of rollups?.pages ?? []) totals.set(page, hits);
    const covered = rollups?.covered ?? new Set<number>();
    const wanted = new Map<'monthly' | 'hourly' | 'minute', Map<number, Array<(doc: SitePageDocument) => unknown>>>();
    const hours = new Set<number>();
    for (const piece of pieces) {
      if (piece.source === 'monthly' && covered.has(dayOf(piece))) continue;
      const byDoc = wanted.get(piece.source) ?? new Map<number, Array<(doc: SitePageDocument) => unknown>>();
      wanted.set(piece.source, byDoc);
      const getters = byDoc.get(piece.doc) ?? [];
      byDoc.set(piece.doc, getters);
      if (field !== undefined && piece.source === 'monthly') getters.push((doc) => doc.vd?.[piece.dayOfMonth]?.[field]);
      else if (field !== undefined && piece.source === 'hourly') getters.push((doc) => doc.vh?.[piece.hour]?.[field]);
      else if (piece.source === 'monthly') getters.push((doc) => doc.daily?.[piece.dayOfMonth]);
      else if (piece.source === 'hourly') getters.push((doc) => doc.hourly?.[piece.hour]);
      else {
        hours.add(piece.hour);
        getters.push((doc) => doc.minute?.[piece.hour]?.[piece.minute]);
      }
    }
    for (const [source, byDoc] of wanted) {
      const fields: SitePageFields = source === 'minute' ? { kind: 'minute', hours } : { kind: source };
      const onDocument = (doc: SitePageDocument): void => {
        let sum = 0;
        for (const get of byDoc.get(doc.date) ?? []) sum += storedCount(get(doc));
        if (sum !== 0) totals.set(doc.page, (totals.get(doc.page) ?? 0) + sum);
      };
      await this.reader.forEachPage(site, [...byDoc.keys()], fields, onDocument, { visits: field !== undefined });
    }
    return totals;
  }

  private parseFirst(first: number): number {
    if (!Number.isSafeInteger(first) || first < 1 || first > this.limits.maxPageSize) {
      throw new BadUserInputError(
        `first must be an integer from 1 to ${this.limits.maxPageSize} (TOP_PAGES_MAX_PAGE), got ${first}`,
        'first',
      );
    }
    return first;
  }
}

/** The UTC day a monthly piece counts. */
function dayOf(piece: { readonly doc: number; readonly dayOfMonth: number }): number {
  return piece.doc + (piece.dayOfMonth - 1) * DAY_MS;
}
