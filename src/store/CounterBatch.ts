/**
 * Increments for every counter collection, coalesced per document, ready to be written as one flush: hit counts,
 * visitor-sketch words (`v`, `dv`) and dimension counters (`d`), in the documents CONTRACT (issues 19 and 20) lists.
 * Per hit, the register value is computed once and each level takes its register from the same hash; dimension
 * paths come from DimensionCounting's cache; nothing here builds a string per hit.
 */
import type { DimensionValues } from '../domain/dimensions/Dimension';
import type { Hit } from '../domain/Hit';
import { SITE_TOTAL_PAGE } from '../domain/siteTotal';
import { registerValue } from '../domain/visitors/registerUpdate';
import { hitParts } from '../time/hitParts';
import type { HitParts } from '../time/hitParts';
import type { VisitDelta } from '../domain/visits/VisitDelta';
import { addHitToDaily, dailyDocumentId } from './dailyStats';
import { visitDayPath, visitHourPath, visitMinutePath } from './visitCounters';
import { EventCounting } from './EventCounting';
import { EVENT_VISITOR_MASK } from './eventDocument';
import { EVENT_SKETCH_WRITES } from './compactPastPeriods';
import { eventsDailyId } from './eventsDaily';
import { eventsMonthlyId } from './eventsMonthly';
import type { DimensionCounting, DimensionSlot } from './DimensionCounting';
import { addHitToMonthly, monthlyDocumentId } from './monthlyStats';
import { PendingUpdates } from './PendingUpdates';
import type { PageRollup } from './PageRollup';
import { addHitToSeconds, secondsDocumentId } from './secondStats';
import { addHitToRollups } from './pageRollups';
import {
  MINUTE_MASK,
  PAGE_DAY_MASK,
  PAGE_MONTH_MASK,
  SITE_DAY_MASK,
  SITE_MONTH_MASK,
  visitorRegisterPath,
} from './visitorSketchPaths';

export interface CounterBatchOptions {
  /**
   * Also count every hit in its site's totals (see siteTotals.ts): coalesced like pages, so a flush costs one
   * more daily, monthly and (with seconds) minute upsert per site and period, inside the same bulkWrites.
   */
  readonly siteTotals?: boolean | undefined;
  /** Second-level counting; absent when switched off. */
  readonly seconds?:
    | {
        /** When the batch was opened: hits older than `now - retentionMs` get no second-level document. */
        readonly now: number;
        readonly retentionMs: number;
      }
    | undefined;
  /**
   * Dimension counters of the daily and monthly documents (the process's one DimensionCounting); absent when
   * DIMENSIONS_ENABLED=false: hits' dimensions are then not counted.
   */
  readonly dimensions?: DimensionCounting | undefined;
  /** Count each hit per page in its site's day and month rollups too (PageRollup, pageRollups; with siteTotals only). */
  readonly pageRollup?: PageRollup | undefined;
  /** How event documents admit names, keys and values (the process's one EventCounting); absent: one per batch. */
  readonly events?: EventCounting | undefined;
  /** Keep the hits that have a visitor for the visit transitions (issue 29: VisitTracker, before the write). */
  readonly visits?: boolean | undefined;
}

/** Every collection a batch writes, in the order its documents are split into parts. */
const COLLECTIONS = [
  'daily',
  'monthly',
  'seconds',
  'eventsDaily',
  'eventsMonthly',
  'rollupsDaily',
  'rollupsMonthly',
] as const;

export class CounterBatch {
  readonly daily = new PendingUpdates();
  readonly monthly = new PendingUpdates();
  readonly seconds = new PendingUpdates();
  /** Custom events (issue 28), out of the documents pageviews rewrite: `events.daily` and `events.monthly`. */
  readonly eventsDaily = new PendingUpdates();
  readonly eventsMonthly = new PendingUpdates();
  /** Hits per page of each site-day and site-month (pageRollups), out of the site's large documents. */
  readonly rollupsDaily = new PendingUpdates();
  readonly rollupsMonthly = new PendingUpdates();
  /** Hits added (a hit with count n counts once). */
  hits = 0;
  /**
   * With visits: the hits that have a visitor, waiting for their visit transitions (src/ingest/applyVisits), which
   * turn them into visit counter changes in this batch before it is written, and empty this.
   */
  visitHits: Hit[] = [];
  private readonly keepsVisitHits: boolean;
  /** Second-level documents start at this instant or later (older ones would be expired at once). */
  private readonly secondsFrom: number | undefined;
  private readonly siteTotals: boolean;
  private readonly dimensions: DimensionCounting | undefined;
  private readonly pageRollup: PageRollup | undefined;
  private readonly events: EventCounting;
  /** The current hit's dimension slots, reused hit after hit, and the values they are of. */
  private readonly slots: DimensionSlot[] = [];
  private slotsOf: DimensionValues | undefined;
  /** The same for visit changes' values (addVisitDelta), apart, so hits and visits do not undo each other's. */
  private readonly visitSlots: DimensionSlot[] = [];
  private visitSlotsOf: DimensionValues | undefined;

  constructor(options: CounterBatchOptions = {}) {
    this.secondsFrom = options.seconds ? options.seconds.now - options.seconds.retentionMs : undefined;
    this.siteTotals = options.siteTotals ?? false;
    this.dimensions = options.dimensions;
    this.pageRollup = options.pageRollup;
    this.events = options.events ?? new EventCounting();
    this.keepsVisitHits = options.visits ?? false;
  }

  add(hit: Hit): void {
    if (this.keepsVisitHits && hit.visitor !== undefined) this.visitHits.push(hit);
    if (hit.event !== undefined) {
      this.addEvent(hit);
      return;
    }
    const { site, page, count, visitor } = hit;
    const parts = hitParts(hit.at);
    // One register value per hit (the same at every precision); 0 when the hit has no visitor (a word never is).
    const word = visitor === undefined ? 0 : registerValue(visitor);
    const low = visitor === undefined ? 0 : visitor.lo;
    const dimensions = this.dimensions;
    let slots: DimensionSlot[] | undefined;
    if (dimensions !== undefined && hit.dimensions !== undefined) {
      // Hits often share one values object (every hit without inputs has the markers'): look its slots up once.
      if (hit.dimensions !== this.slotsOf) {
        dimensions.slotsOf(hit.dimensions, this.slots);
        this.slotsOf = hit.dimensions;
      }
      slots = this.slots;
    }

    const day = addHitToDaily(this.daily, site, page, count, parts);
    const month = addHitToMonthly(this.monthly, site, page, count, parts);
    if (word !== 0) {
      day.or(visitorRegisterPath(low & PAGE_DAY_MASK), word);
      month.or(visitorRegisterPath(low & PAGE_MONTH_MASK), word);
    }
    if (slots !== undefined) {
      (dimensions as DimensionCounting).count(day, slots, count, 0, 0);
      (dimensions as DimensionCounting).count(month, slots, count, 0, 0);
    }
    if (this.siteTotals) {
      const siteDay = addHitToDaily(this.daily, site, SITE_TOTAL_PAGE, count, parts);
      const siteMonth = addHitToMonthly(this.monthly, site, SITE_TOTAL_PAGE, count, parts);
      if (this.pageRollup !== undefined) this.rollUp(this.pageRollup, site, page, count, parts);
      if (word !== 0) {
        siteDay.or(visitorRegisterPath(low & SITE_DAY_MASK), word);
        siteMonth.or(visitorRegisterPath(low & SITE_MONTH_MASK), word);
      }
      if (slots !== undefined) {
        // Per-value visitor sketches (dv) live in site documents only, at minute precision.
        (dimensions as DimensionCounting).count(siteDay, slots, count, word, low & MINUTE_MASK);
        (dimensions as DimensionCounting).count(siteMonth, slots, count, word, low & MINUTE_MASK);
      }
    }
    if (this.secondsFrom !== undefined && hit.at >= this.secondsFrom) {
      const minute = addHitToSeconds(this.seconds, site, page, count, parts);
      if (word !== 0) minute.or(visitorRegisterPath(low & MINUTE_MASK), word);
      if (this.siteTotals) {
        const siteMinute = addHitToSeconds(this.seconds, site, SITE_TOTAL_PAGE, count, parts);
        if (word !== 0) siteMinute.or(visitorRegisterPath(low & MINUTE_MASK), word);
      }
    }
    this.hits += 1;
  }

  private rollUp(rollup: PageRollup, site: string, page: string, count: number, parts: HitParts): void {
    const { day, month } = addHitToRollups(this.rollupsDaily, this.rollupsMonthly, site, count, parts);
    const dayPath = rollup.pathFor(day.key.id, page);
    if (dayPath !== undefined) day.add(dayPath, count);
    const monthPath = rollup.pathFor(month.key.id, page);
    if (monthPath !== undefined) month.add(monthPath, count);
  }

  /**
   * An event: counted in its page's and its site's event documents, never in hits. Its visitor joins the site's
   * visitors (as in Plausible: someone who only sent an event still visited), not the page's.
   */
  private addEvent(hit: Hit): void {
    const { site, page, count, visitor } = hit;
    const event = hit.event as NonNullable<Hit['event']>;
    const parts = hitParts(hit.at);
    const word = visitor === undefined ? 0 : registerValue(visitor);
    const low = visitor === undefined ? 0 : visitor.lo;
    for (const where of [page, SITE_TOTAL_PAGE]) {
      const day = this.eventsDaily.document(site, where, parts.day, eventsDailyId);
      const month = this.eventsMonthly.document(site, where, parts.month, eventsMonthlyId);
      this.events.count(day, event, count, word, low & EVENT_VISITOR_MASK, hit.dimensions);
      this.events.count(month, event, count, word, low & EVENT_VISITOR_MASK, hit.dimensions);
    }
    if (this.siteTotals && word !== 0) {
      const day = this.daily.document(site, SITE_TOTAL_PAGE, parts.day, dailyDocumentId);
      day.or(visitorRegisterPath(low & SITE_DAY_MASK), word);
      const month = this.monthly.document(site, SITE_TOTAL_PAGE, parts.month, monthlyDocumentId);
      month.or(visitorRegisterPath(low & SITE_MONTH_MASK), word);
      // An event's register comes without a hit: this counter is what tells compaction the sketch changed.
      day.add(EVENT_SKETCH_WRITES, 1);
      month.add(EVENT_SKETCH_WRITES, 1);
    }
    this.hits += 1;
  }

  /**
   * One visit counter change, in the documents of the visit's start period: `vh.<hour>.<field>` of the daily
   * document, `vd.<day of month>.<field>` of the monthly one, and with second-level counting `vm.<field>` of the
   * minute document (for live series; none for a visit that started before the retention window, as for hits); a
   * site change (no page) also under the visit's dimension values (`dx`) where `counting` (the process's
   * DimensionCounting) is given.
   */
  addVisitDelta(site: string, delta: VisitDelta, counting: DimensionCounting | undefined): void {
    const parts = hitParts(delta.start);
    const page = delta.page ?? SITE_TOTAL_PAGE;
    const day = this.daily.document(site, page, parts.day, dailyDocumentId);
    const month = this.monthly.document(site, page, parts.month, monthlyDocumentId);
    day.add(visitHourPath(parts.hourOfDay, delta.field), delta.amount);
    month.add(visitDayPath(parts.dayOfMonth, delta.field), delta.amount);
    const minutePath = visitMinutePath(delta.field);
    if (minutePath !== undefined && this.secondsFrom !== undefined && delta.start >= this.secondsFrom) {
      this.seconds.document(site, page, parts.minute, secondsDocumentId).add(minutePath, delta.amount);
    }
    const dimensions = delta.dimensions;
    if (delta.page !== undefined || counting === undefined || dimensions === undefined) return;
    // A visit's site changes share its values object, and come one after the other: look its slots up once.
    if (dimensions !== this.visitSlotsOf) {
      counting.slotsOf(dimensions, this.visitSlots);
      this.visitSlotsOf = dimensions;
    }
    counting.countVisit(day, this.visitSlots, delta.field, delta.amount);
    counting.countVisit(month, this.visitSlots, delta.field, delta.amount);
  }

  absorb(other: CounterBatch): void {
    if (other.visitHits.length > 0) this.visitHits.push(...other.visitHits);
    this.daily.absorb(other.daily);
    this.monthly.absorb(other.monthly);
    this.seconds.absorb(other.seconds);
    this.eventsDaily.absorb(other.eventsDaily);
    this.eventsMonthly.absorb(other.eventsMonthly);
    this.rollupsDaily.absorb(other.rollupsDaily);
    this.rollupsMonthly.absorb(other.rollupsMonthly);
    this.hits += other.hits;
  }

  /**
   * The same documents in parts of at most `maxDocuments`, each collection's in `_id` order: a window of the ingest
   * log can touch tens of thousands of documents, and one bulk write of them all would outlast any timeout.
   */
  split(maxDocuments: number): CounterBatch[] {
    if (this.documents <= maxDocuments) return [this];
    const parts: CounterBatch[] = [];
    let part = new CounterBatch();
    for (const level of COLLECTIONS) {
      for (const document of this[level].documentsById()) {
        if (part.documents >= maxDocuments) {
          parts.push(part);
          part = new CounterBatch();
        }
        part[level].adopt(document);
      }
    }
    parts.push(part);
    (parts[0] as CounterBatch).hits = this.hits;
    return parts;
  }

  /**
   * This batch's documents in two batches: those of `level`, and all the others (with the hits count). A window's
   * writer sends the two one beside the other: they touch different collections, so the database can work on both.
   */
  partition(level: (typeof COLLECTIONS)[number]): [CounterBatch, CounterBatch] {
    const own = new CounterBatch();
    const others = new CounterBatch();
    for (const collection of COLLECTIONS) {
      const into = collection === level ? own : others;
      for (const document of this[collection].documentsById()) into[collection].adopt(document);
    }
    others.hits = this.hits;
    return [own, others];
  }

  /** Documents this batch will update: the cost of writing it. */
  get documents(): number {
    let documents = 0;
    for (const level of COLLECTIONS) documents += this[level].size;
    return documents;
  }
}
