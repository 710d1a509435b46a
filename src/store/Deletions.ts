/**
 * Deleting a site or a page (issue 30): a request is recorded in `ops.deletions` (deletionRequests) and answered at
 * once; a background job, every SWEEP_INTERVAL_MS on every instance, deletes the target's counter documents
 * (CounterStore.deleteOwner) and then the request. The rule for hits: everything stored before the request is
 * deleted; hits that arrive while it is pending may be deleted with it or may stay (they land in documents the job
 * has or has not passed yet); hits after it is done count afresh. Requests and runs are idempotent: a document
 * already gone is not an error, and a request made again while one runs keeps it pending for one more pass.
 */
import type { Collection } from 'mongodb';
import type { Database } from './connectDatabase';
import type { CounterStore } from './CounterStore';
import {
  completeDeletion,
  countPendingDeletions,
  deletionsCollection,
  pendingDeletions,
  requestDeletion,
} from './deletionRequests';
import type { DeletionDocument, DeletionTarget, PendingDeletion } from './deletionRequests';
import { translateDriverError } from './translateDriverError';
import type { SweepContext } from './ttlOrSweep';

export interface DeletionObserver {
  /** Before a target's documents are deleted (the pipeline forgets its pages: no preallocation re-creates them). */
  readonly starting?: ((target: DeletionTarget) => void) | undefined;
  /** Documents deleted from one collection. */
  readonly deleted?: ((collection: string, documents: number) => void) | undefined;
}

export class Deletions {
  private readonly collection: Collection<DeletionDocument>;
  /** Pending deletions as the last request or run saw them (the metrics' gauge). */
  private seen = 0;

  constructor(
    database: Database,
    private readonly counters: CounterStore,
    private readonly observer: DeletionObserver = {},
  ) {
    this.collection = deletionsCollection(database.db);
  }

  get pending(): number {
    return this.seen;
  }

  async request(target: DeletionTarget, now: number): Promise<PendingDeletion> {
    try {
      const pending = await requestDeletion(this.collection, target, now);
      this.seen = await countPendingDeletions(this.collection);
      return pending;
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  /** The pending deletions (at most DELETIONS_PER_RUN), by site and page. */
  async list(): Promise<PendingDeletion[]> {
    try {
      const pending = await pendingDeletions(this.collection);
      this.seen = await countPendingDeletions(this.collection);
      return pending;
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  /** Carries out the pending deletions; resolves with how many documents went. */
  async run(context: SweepContext): Promise<number> {
    let deleted = 0;
    try {
      for (const deletion of await pendingDeletions(this.collection)) {
        if (context.stopped()) break;
        deleted += totalOf(await this.carryOut(deletion, context));
      }
      this.seen = await countPendingDeletions(this.collection);
    } catch (error) {
      throw translateDriverError(error);
    }
    return deleted;
  }

  /**
   * Deletes one target's documents and then its request (`tally delete` runs its own this way); resolves with the
   * documents deleted per collection. Stopped part-way, the request stays pending.
   */
  async carryOut(deletion: PendingDeletion, context: SweepContext): Promise<Map<string, number>> {
    this.observer.starting?.(deletion);
    const counts = await this.counters.deleteOwner(deletion, context);
    for (const [collection, documents] of counts) this.observer.deleted?.(collection, documents);
    if (context.stopped()) return counts;
    try {
      await completeDeletion(this.collection, deletion);
    } catch (error) {
      throw translateDriverError(error);
    }
    return counts;
  }
}

function totalOf(counts: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const documents of counts.values()) total += documents;
  return total;
}
