/**
 * Reads of the event collections (`events.daily`, `events.monthly`; eventDocument): documents by id, one find per
 * collection per call, as the write policy reads ids (exact `_id` finds on stock FerretDB for a few documents, one
 * `$in` otherwise). Writes go through CounterStore, in the same flushes and under the same marks as the hit counters.
 */
import type { Collection } from 'mongodb';
import type { Database } from './connectDatabase';
import { eventCollection } from './eventDocument';
import type { EventStatsDocument } from './eventDocument';
import { EVENTS_DAILY_COLLECTION } from './eventsDaily';
import { EVENTS_MONTHLY_COLLECTION } from './eventsMonthly';
import { EXACT_ID_READ_LIMIT, findByExactIds } from './findByExactIds';
import { findByIdList } from './findByIdList';
import { translateDriverError } from './translateDriverError';
import type { WritePolicy } from './WritePolicy';

export type EventLevel = 'day' | 'month';

const PROJECTION = { _a: 0 } as const;

export class EventStore {
  private readonly collections: Readonly<Record<EventLevel, Collection<EventStatsDocument>>>;
  private readonly policy: WritePolicy;

  constructor(database: Database) {
    this.collections = {
      day: eventCollection(database.db, EVENTS_DAILY_COLLECTION),
      month: eventCollection(database.db, EVENTS_MONTHLY_COLLECTION),
    };
    this.policy = database.policy;
  }

  /** The documents of `ids` that exist, in no particular order. */
  async find(level: EventLevel, ids: readonly string[]): Promise<EventStatsDocument[]> {
    if (ids.length === 0) return [];
    const collection = this.collections[level];
    try {
      if (this.policy.reads === 'exactIds' && ids.length <= EXACT_ID_READ_LIMIT) {
        return await findByExactIds(collection, ids, PROJECTION);
      }
      return await findByIdList(collection, ids, PROJECTION);
    } catch (error) {
      throw translateDriverError(error);
    }
  }
}
