/**
 * The event queries (issue 28): events (names ranked by count), properties (one property's values for one event),
 * breakdown with `event` (an event's counts per dimension value) and conversions (goals: an event, or pages matched
 * by a pattern). Arguments are parsed here; counts come from the request's EventLoader; rankings reuse the
 * breakdown's keyset paging, so the connections page and tie-break exactly as breakdowns do.
 */
import type { Dimension } from '../../domain/dimensions/Dimension';
import { dimensionKey } from '../../domain/dimensions/dimensionKey';
import { currencyDigits } from '../../domain/events/currencyDigits';
import { fromMinorUnits } from '../../domain/events/minorUnits';
import { parsePageGoal } from '../../domain/events/pageGoal';
import type { PageMatcher } from '../../domain/events/pageGoal';
import { parseEventName } from '../../domain/events/parseEvent';
import { parsePage } from '../../domain/parsePage';
import { parseSite } from '../../domain/parseSite';
import { SITE_TOTAL_PAGE } from '../../domain/siteTotal';
import { VISITOR_PRECISION } from '../../domain/visitors/VisitorPrecision';
import { mergeCompactSketch } from '../../domain/visitors/compactSketch';
import { VisitorSketch } from '../../domain/visitors/VisitorSketch';
import { BadUserInputError } from '../../errors/BadUserInputError';
import { eventDimensionPath, eventNamePaths } from '../../store/eventDocument';
import type { PageDate, PageDigests, SitePageDocument, SitePageFields } from '../../store/SitePageScan';
import type { BreakdownQuery, BreakdownResult } from '../BreakdownQuery';
import { decodeBreakdownCursor } from '../breakdownCursor';
import { countedDays } from '../countedDays';
import { parseTimeZone } from '../parseTimeZone';
import { periodPieces } from '../periodPieces';
import type { PeriodPiece } from '../periodPieces';
import type { HitHorizon } from '../spanPieces';
import { DAY_MS, daysInMonth } from '../../time/buckets';
import { mergeStored } from '../seriesVisitors';
import type { EventSpan } from './EventLoader';
import type { EventTotals } from './EventTotals';

export interface EventSpanArgs {
  readonly site: string;
  readonly page?: string | null | undefined;
  readonly from: Date;
  readonly to: Date;
  readonly timeZone?: string | null | undefined;
}

export interface Paging {
  readonly first: number;
  readonly after?: ReturnType<typeof decodeBreakdownCursor> | undefined;
}

export interface GoalArgs {
  readonly event?: string | null | undefined;
  readonly page?: string | null | undefined;
}

export interface Money {
  readonly currency: string;
  /** A decimal string with the currency's minor-unit digits: "29.90". */
  readonly amount: string;
}

export interface Conversion {
  readonly goal: string;
  readonly events: number;
  readonly visitors: number | null;
  readonly conversionRate: number | null;
  readonly revenue: readonly Money[];
}

/**
 * Page documents of a site on some dates, with their visitor sketches, its site-day page rollups and its page
 * digests (SitePageScan).
 */
export interface SitePageVisitorsReader {
  pageDigests(
    site: string,
    periods: { readonly days: readonly number[]; readonly months: readonly number[] },
  ): Promise<PageDigests>;
  pageRollups(site: string, days: readonly number[]): Promise<Map<number, Map<string, number>>>;
  forEachPageById(
    site: string,
    pages: { readonly monthly: readonly PageDate[]; readonly daily: readonly PageDate[] },
    onDocument: (doc: SitePageDocument) => void,
  ): Promise<boolean>;
  forEachPage(
    site: string,
    dates: readonly number[],
    fields: SitePageFields,
    onDocument: (doc: SitePageDocument) => void,
    options: { readonly visitors: boolean },
  ): Promise<void>;
}

/** Where conversions read: the request's event loader and the site's visitors over a span. */
export interface ConversionSources {
  readonly events: (span: EventSpan) => Promise<EventTotals>;
  readonly siteVisitors: (span: EventSpan) => Promise<number>;
}

export const MAX_GOALS = 20;

type PageGoal = { readonly kind: 'page'; readonly pattern: string; readonly matches: PageMatcher };
type Goal = { readonly kind: 'event'; readonly name: string } | PageGoal;

export class EventQueries {
  constructor(
    private readonly ranking: BreakdownQuery,
    private readonly limits: {
      readonly maxDays: number;
      /** Where stored hits end now (spanPieces): spans through today read this month's documents. */
      readonly horizon?: (() => HitHorizon) | undefined;
    },
    private readonly pages: SitePageVisitorsReader,
  ) {}

  /** The span a query counts: the UTC days covering the range's local days (as breakdowns count). */
  parseSpan(args: EventSpanArgs, field: string): EventSpan {
    const site = parseSite(args.site);
    const page = args.page == null ? SITE_TOTAL_PAGE : parsePage(args.page);
    const zone = parseTimeZone(args.timeZone);
    const days = countedDays(zone, args.from, args.to, {
      maxDays: this.limits.maxDays,
      field,
      setting: 'QUERY_MAX_BUCKETS',
    });
    return { site, page, from: days.utcFrom, to: days.utcTo, horizon: this.limits.horizon?.() };
  }

  parsePaging(first: number, after: string | null | undefined): Paging {
    return {
      first: this.ranking.parseFirst(first),
      after: after == null ? undefined : decodeBreakdownCursor(after),
    };
  }

  /** Event names ranked by count, with each name's converting visitors. */
  events(totals: EventTotals, paging: Paging): BreakdownResult {
    return this.ranking.rank(
      { request: totals, hits: totals.counts(), visitorsOf: (key) => totals.visitors(key) },
      paging,
    );
  }

  /** One property's values for one event, ranked by count. */
  properties(totals: EventTotals, event: string, key: string, paging: Paging): BreakdownResult {
    const name = parseEventName(event, () => 'event');
    if (key.length === 0) throw new BadUserInputError('key must not be empty', 'key');
    return this.ranking.rank(
      { request: totals, hits: totals.propertyCounts(dimensionKey(name), dimensionKey(key)) },
      paging,
    );
  }

  /** The span of `breakdown`, reading only the event's counters of the dimension. */
  breakdownSpan(span: EventSpan, event: string, dimension: Dimension): EventSpan {
    const name = parseEventName(event, () => 'event');
    return { ...span, fields: [eventDimensionPath(dimensionKey(name), dimension)] };
  }

  /** One event's counts per value of a dimension (conversions by source, country, …). */
  breakdown(totals: EventTotals, event: string, dimension: Dimension, paging: Paging): BreakdownResult {
    const name = parseEventName(event, () => 'event');
    return this.ranking.rank({ request: totals, hits: totals.dimensionCounts(dimensionKey(name), dimension) }, paging);
  }

  parseGoals(goals: readonly GoalArgs[]): Goal[] {
    if (goals.length > MAX_GOALS) {
      throw new BadUserInputError(`goals must hold at most ${MAX_GOALS} goals, got ${goals.length}`, 'goals');
    }
    return goals.map((goal, i) => {
      const field = `goals[${i}]`;
      if ((goal.event == null) === (goal.page == null)) {
        throw new BadUserInputError(
          `${field} must set exactly one of event and page, got ${goal.event == null ? 'neither' : 'both'}`,
          field,
        );
      }
      if (goal.event != null) return { kind: 'event', name: parseEventName(goal.event, () => `${field}.event`) };
      const pattern = goal.page as string;
      return { kind: 'page', pattern, matches: parsePageGoal(pattern, `${field}.page`) };
    });
  }

  /**
   * Each goal's events (occurrences, or page hits), converting visitors and revenue over the span, and its
   * conversion rate: the goal's visitors over the site's visitors of the same span (null without visitors).
   */
  async conversions(span: EventSpan, goals: readonly Goal[], sources: ConversionSources): Promise<Conversion[]> {
    const siteSpan = { ...span, page: SITE_TOTAL_PAGE };
    const hasEvents = goals.some((g) => g.kind === 'event');
    const pageGoals = goals.filter((g): g is PageGoal => g.kind === 'page');
    const fields = goals.flatMap((g) =>
      g.kind === 'event' ? eventNamePaths(dimensionKey(g.name), ['n', 'ev', 'r']) : [],
    );
    const [totals, siteVisitors, pageTotals] = await Promise.all([
      hasEvents ? sources.events({ ...span, fields }) : undefined,
      sources.siteVisitors(siteSpan),
      pageGoals.length > 0 ? this.pageGoalTotals(span, pageGoals) : undefined,
    ]);
    const rate = (visitors: number): number | null => (siteVisitors > 0 ? Math.min(1, visitors / siteVisitors) : null);
    return goals.map((goal) => {
      if (goal.kind === 'event') {
        const key = dimensionKey(goal.name);
        const events = (totals as EventTotals).counts().get(key) ?? 0;
        const visitors = events === 0 ? 0 : (totals as EventTotals).visitors(key);
        const revenue = [...(totals as EventTotals).revenue(key)]
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([currency, minor]) => ({ currency, amount: fromMinorUnits(minor, currencyDigits(currency)) }));
        return { goal: goal.name, events, visitors, conversionRate: rate(visitors), revenue };
      }
      const found = (pageTotals as Map<Goal, PageGoalTotal>).get(goal) as PageGoalTotal;
      const visitors = Math.round(found.sketch.estimate());
      return {
        goal: `Visit ${goal.pattern}`,
        events: found.hits,
        visitors,
        conversionRate: rate(visitors),
        revenue: [],
      };
    });
  }

  /**
   * Hits and visitors of the pages each page goal matches over the span (whole months, and the other days). Closed
   * periods come from their page digests (pageDigests: every page's hits and sketch in one small document per
   * site-day and site-month), the others from the pages' documents (pageDocumentTotals). Sketches are ORed at page
   * precision.
   */
  private async pageGoalTotals(span: EventSpan, goals: readonly PageGoal[]): Promise<Map<Goal, PageGoalTotal>> {
    const pieces = periodPieces(span.from, span.to);
    if (pieces === undefined) throw new RangeError('a goal span must be whole UTC days');
    const totals = new Map<Goal, PageGoalTotal>(
      goals.map((goal) => [goal, { hits: 0, sketch: VisitorSketch.empty(VISITOR_PRECISION.pageDay) }]),
    );
    const matched = new Map<string, GoalsOfPage>();
    const matching = (page: string): GoalsOfPage => {
      let found = matched.get(page);
      if (found === undefined) {
        const goalTotals = goals.filter((goal) => goal.matches(page)).map((goal) => totals.get(goal) as PageGoalTotal);
        found = { totals: goalTotals, sketches: goalTotals.map((total) => total.sketch) };
        matched.set(page, found);
      }
      return found;
    };
    const add = (page: string, hits: number, addSketch: (sketches: readonly VisitorSketch[]) => void): void => {
      const found = matching(page);
      if (found.totals.length === 0) return;
      for (const total of found.totals) total.hits += hits;
      addSketch(found.sketches);
    };
    const digests = await this.pages.pageDigests(span.site, {
      days: pieces.filter((piece) => piece.level === 'day').map((piece) => piece.start),
      months: pieces.filter((piece) => piece.level === 'month').map((piece) => piece.start),
    });
    const rest: PeriodPiece[] = [];
    for (const piece of pieces) {
      const entries = (piece.level === 'month' ? digests.months : digests.days).get(piece.start);
      if (entries === undefined) rest.push(piece);
      else
        for (const entry of entries)
          add(entry.page, entry.hits, (sketches) => mergeCompactSketch(sketches, entry.sketch));
    }
    if (rest.length > 0) {
      await this.pageDocumentTotals(span.site, rest, (page) => matching(page).totals.length > 0, add);
    }
    return totals;
  }

  /**
   * Page goals over `pieces` from the pages' documents: where every day of a period has a complete site-day page
   * rollup (PageRollup), the rollups give the matching pages and their hits, and only those pages' documents are
   * read, by id, for their sketches; the other periods (or all, where the engine reads ids one by one and there are
   * many) scan the site's page documents on their dates, as topPages does.
   */
  private async pageDocumentTotals(
    site: string,
    pieces: readonly PeriodPiece[],
    matches: (page: string) => boolean,
    add: (page: string, hits: number, addSketch: (sketches: readonly VisitorSketch[]) => void) => void,
  ): Promise<void> {
    const days = pieces.flatMap((piece) =>
      piece.level === 'month' ? daysOfMonth(piece.start) : piece.level === 'day' ? [piece.start] : [],
    );
    const rollups = await this.pages.pageRollups(site, days);
    const byId = { monthly: [] as PageDate[], daily: [] as PageDate[] };
    const rolledUpHits: Array<readonly [string, number]> = [];
    const scan = { monthly: [] as number[], daily: [] as number[] };
    for (const piece of pieces) {
      const level = piece.level === 'month' ? 'monthly' : 'daily';
      const pieceDays = level === 'monthly' ? daysOfMonth(piece.start) : [piece.start];
      if (!pieceDays.every((day) => rollups.has(day))) {
        scan[level].push(piece.start);
        continue;
      }
      const pages = new Set<string>();
      for (const day of pieceDays) {
        for (const [page, hits] of rollups.get(day) as Map<string, number>) {
          if (!matches(page)) continue;
          pages.add(page);
          rolledUpHits.push([page, hits]);
        }
      }
      for (const page of pages) byId[level].push({ page, date: piece.start });
    }
    const sketchOf =
      (doc: SitePageDocument) =>
      (sketches: readonly VisitorSketch[]): void => {
        for (const sketch of sketches) mergeStored(sketch, doc.v, doc.vz);
      };
    if (await this.pages.forEachPageById(site, byId, (doc) => add(doc.page, 0, sketchOf(doc)))) {
      for (const [page, hits] of rolledUpHits) add(page, hits, () => undefined);
    } else {
      for (const level of ['monthly', 'daily'] as const) scan[level].push(...new Set(byId[level].map((p) => p.date)));
    }
    const onDocument = (doc: SitePageDocument): void => {
      let hits = 0;
      for (const field of [doc.daily, doc.hourly]) {
        if (field === undefined) continue;
        for (const key in field) hits += Number(field[key] ?? 0);
      }
      add(doc.page, hits, sketchOf(doc));
    };
    await Promise.all([
      this.pages.forEachPage(site, scan.monthly, { kind: 'monthly' }, onDocument, { visitors: true }),
      this.pages.forEachPage(site, scan.daily, { kind: 'hourly' }, onDocument, { visitors: true }),
    ]);
  }
}

function daysOfMonth(month: number): number[] {
  return Array.from({ length: daysInMonth(month) }, (_, i) => month + i * DAY_MS);
}

interface PageGoalTotal {
  hits: number;
  readonly sketch: VisitorSketch;
}

/** The totals of the goals a page matches, and their sketches: one decoding of the page's sketch fills them all. */
interface GoalsOfPage {
  readonly totals: readonly PageGoalTotal[];
  readonly sketches: readonly VisitorSketch[];
}
