/** Increments for every counter collection, coalesced per document, ready to be written as one flush. */
import type { Hit } from '../ingest/Hit';
import { addHitToDaily } from './dailyStats';
import { addHitToMonthly } from './monthlyStats';
import { PendingUpdates } from './PendingUpdates';

export class CounterBatch {
  readonly daily = new PendingUpdates();
  readonly monthly = new PendingUpdates();
  /** Hits added (a hit with count n counts once). */
  hits = 0;

  add(hit: Hit): void {
    addHitToDaily(this.daily, hit);
    addHitToMonthly(this.monthly, hit);
    this.hits += 1;
  }

  absorb(other: CounterBatch): void {
    this.daily.absorb(other.daily);
    this.monthly.absorb(other.monthly);
    this.hits += other.hits;
  }

  /** Documents this batch will update: the cost of writing it. */
  get documents(): number {
    return this.daily.size + this.monthly.size;
  }
}
