/**
 * Reads of the event collections (`events.daily`, `events.monthly`; eventDocument): documents by id, one find per
 * collection per call, as the write policy reads ids (exact `_id` finds on stock FerretDB for a few documents, one
 * `$in` otherwise). Writes go through CounterStore, in the same flushes and under the same marks as the hit counters.
 */
import type { Collection, Document } from 'mongodb';
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

export interface EventStoreOptions {
  /**
   * Called for each document read that still holds register fields (`ev`): data written before this process, or
   * late events, for the compaction job (CompactionNominations). `start` is the document's period start.
   */
  readonly onUncompacted?: ((level: EventLevel, id: string, start: number) => void) | undefined;
}

export class EventStore {
  private readonly collections: Readonly<Record<EventLevel, Collection<EventStatsDocument>>>;
  private readonly policy: WritePolicy;
  private readonly onUncompacted: EventStoreOptions['onUncompacted'];

  constructor(database: Database, options: EventStoreOptions = {}) {
    this.collections = {
      day: eventCollection(database.db, EVENTS_DAILY_COLLECTION),
      month: eventCollection(database.db, EVENTS_MONTHLY_COLLECTION),
    };
    this.policy = database.policy;
    this.onUncompacted = options.onUncompacted;
  }

  /**
   * The documents of `ids` that exist, in no particular order: whole, or only `fields` (eventDocument's paths). An
   * event document holds every name's sketch, properties and dimension counters, and every engine pays per field
   * read (FerretDB 1.x decodes each one it returns), so a breakdown of one event reads that event's counters only.
   */
  async find(level: EventLevel, ids: readonly string[], fields?: readonly string[]): Promise<EventStatsDocument[]> {
    if (ids.length === 0) return [];
    const collection = this.collections[level];
    const sketches = fields === undefined || fields.some((field) => field.startsWith('ev.'));
    const nominate = this.onUncompacted !== undefined && sketches;
    const projection = projectionOf(fields === undefined || !nominate ? fields : [...fields, 'metadata.date']);
    let docs: EventStatsDocument[];
    try {
      docs =
        this.policy.reads === 'exactIds' && ids.length <= EXACT_ID_READ_LIMIT
          ? await findByExactIds(collection, ids, projection)
          : await findByIdList(collection, ids, projection);
    } catch (error) {
      throw translateDriverError(error);
    }
    if (nominate) {
      for (const doc of docs) {
        if (doc.ev !== undefined && Object.keys(doc.ev).length > 0 && doc.metadata?.date instanceof Date) {
          this.onUncompacted?.(level, doc._id, doc.metadata.date.getTime());
        }
      }
    }
    return docs;
  }
}

/** `fields` as an inclusion projection, without paths inside another (a path collision on MongoDB). */
function projectionOf(fields: readonly string[] | undefined): Document {
  if (fields === undefined) return PROJECTION;
  const kept: string[] = [];
  // Sorted, a path comes before every path inside it.
  for (const field of [...new Set(fields)].sort()) {
    if (!kept.some((outer) => field.startsWith(`${outer}.`))) kept.push(field);
  }
  return { _id: 1, ...Object.fromEntries(kept.map((field) => [field, 1])) };
}
