/** Increments for every counter collection, coalesced per document, ready to be written as one flush. */
import type { Hit } from '../domain/Hit';
import { hitParts } from '../time/hitParts';
import { addHitToDaily } from './dailyStats';
import { addHitToMonthly } from './monthlyStats';
import { PendingUpdates } from './PendingUpdates';
import { addHitToSeconds } from './secondStats';
import { SITE_TOTAL_PAGE } from '../domain/siteTotal';

export interface CounterBatchOptions {
  /**
   * Also count every hit in its site's totals (see siteTotals.ts): coalesced like pages, so a flush costs one
   * more daily and one more monthly upsert per site and period, inside the same bulkWrites.
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
}

export class CounterBatch {
  readonly daily = new PendingUpdates();
  readonly monthly = new PendingUpdates();
  readonly seconds = new PendingUpdates();
  /** Hits added (a hit with count n counts once). */
  hits = 0;
  /** Second-level documents start at this instant or later (older ones would be expired at once). */
  private readonly secondsFrom: number | undefined;
  private readonly siteTotals: boolean;

  constructor(options: CounterBatchOptions = {}) {
    this.secondsFrom = options.seconds ? options.seconds.now - options.seconds.retentionMs : undefined;
    this.siteTotals = options.siteTotals ?? false;
  }

  add(hit: Hit): void {
    const { site, page, count } = hit;
    const parts = hitParts(hit.at);
    addHitToDaily(this.daily, site, page, count, parts);
    addHitToMonthly(this.monthly, site, page, count, parts);
    if (this.siteTotals) {
      addHitToDaily(this.daily, site, SITE_TOTAL_PAGE, count, parts);
      addHitToMonthly(this.monthly, site, SITE_TOTAL_PAGE, count, parts);
    }
    if (this.secondsFrom !== undefined && hit.at >= this.secondsFrom) {
      addHitToSeconds(this.seconds, site, page, count, parts);
    }
    this.hits += 1;
  }

  absorb(other: CounterBatch): void {
    this.daily.absorb(other.daily);
    this.monthly.absorb(other.monthly);
    this.seconds.absorb(other.seconds);
    this.hits += other.hits;
  }

  /** Documents this batch will update: the cost of writing it. */
  get documents(): number {
    return this.daily.size + this.monthly.size + this.seconds.size;
  }
}
