/**
 * The query section's data set, grown size by size: the same hits go into raw events (one document each,
 * inserted in chunks with a bounded number of insertMany commands in flight) and into tally's daily and
 * monthly documents (built by the ingest path's own CounterBatch, kept cumulatively, and rewritten with
 * insertMany at each size). Memory is bounded by a chunk of hits plus the counters, never by the hits stored.
 */
import type { Db, Document } from 'mongodb';
import { CounterBatch } from '../../src/store/CounterBatch';
import { upsertedDocument } from './counterDocuments';
import type { Random } from '../shared/random';
import { RAW_EVENTS_COLLECTION } from './rawEventQueries';
import type { CollStats } from './collStats';
import { collStats } from './collStats';
import { optional } from '../shared/optional';
import { elapsedMs } from '../shared/stats';
import { generateHits } from '../shared/traffic';
import type { TrafficShape } from '../shared/traffic';

/** Hits generated, counted and inserted at a time. */
const LOAD_CHUNK = 10_000;
/** insertMany commands in flight: one builds the next chunk while the database writes the previous. */
const INSERTS_IN_FLIGHT = 2;
/** Counter documents per insertMany (a daily document can hold 1,440 minute counters). */
const COUNTER_CHUNK = 1_000;

export interface StorageAtSize {
  readonly raw?: CollStats;
  readonly daily?: CollStats;
  readonly monthly?: CollStats;
}

export interface DataSetStats {
  readonly dataSize: number;
  readonly dailyDocuments: number;
  readonly monthlyDocuments: number;
  /** Distinct (page, day) pairs with hits: one daily document each. */
  readonly pageDays: number;
  /** Loading this size's new raw events. */
  readonly rawLoadMs: number;
  /** Rewriting tally's documents for all hits so far. */
  readonly counterLoadMs: number;
  readonly loadMs: number;
  /** collStats of both designs' collections at this size, where the engine reports them. */
  readonly storage: StorageAtSize;
}

/** tally's daily + monthly collections at one size, when the engine reports both. */
export function tallyStorage(d: DataSetStats): { size: number; index: number } | undefined {
  const { daily, monthly } = d.storage;
  if (!daily || !monthly) return undefined;
  return { size: daily.size + monthly.size, index: daily.totalIndexSize + monthly.totalIndexSize };
}

export class QueryFixtures {
  private readonly counters = new CounterBatch();
  private loaded = 0;

  /**
   * @param rawDb the data set's database on a pooled client (concurrent inserts)
   * @param counterDb the same database on the client that writes counters (one writer on FerretDB)
   */
  constructor(
    private readonly rawDb: Db,
    private readonly counterDb: Db,
    private readonly shape: TrafficShape,
    private readonly random: Random,
  ) {}

  get hits(): number {
    return this.loaded;
  }

  /** Adds hits until `dataSize` are stored in both designs, and reports the data set. */
  async growTo(dataSize: number): Promise<DataSetStats> {
    const start = process.hrtime.bigint();
    await this.insertRawEvents(dataSize - this.loaded);
    const rawLoadMs = elapsedMs(start);
    const countersStart = process.hrtime.bigint();
    const dailyDocuments = await this.rewrite('stats.daily', this.counters.daily.toOperations('shardKey'));
    const monthlyDocuments = await this.rewrite('stats.monthly', this.counters.monthly.toOperations('shardKey'));
    const counterLoadMs = elapsedMs(countersStart);
    const loadMs = elapsedMs(start);
    const storage: StorageAtSize = {
      ...optional('raw', await collStats(this.counterDb, RAW_EVENTS_COLLECTION)),
      ...optional('daily', await collStats(this.counterDb, 'stats.daily')),
      ...optional('monthly', await collStats(this.counterDb, 'stats.monthly')),
    };
    return {
      dataSize,
      dailyDocuments,
      monthlyDocuments,
      pageDays: dailyDocuments,
      rawLoadMs,
      counterLoadMs,
      loadMs,
      storage,
    };
  }

  private async insertRawEvents(count: number): Promise<void> {
    const raw = this.rawDb.collection(RAW_EVENTS_COLLECTION);
    const inFlight = new Set<Promise<unknown>>();
    let failure: unknown;
    for (let done = 0; done < count; done += LOAD_CHUNK) {
      const hits = generateHits(this.shape, Math.min(LOAD_CHUNK, count - done), this.random);
      const events: Document[] = [];
      for (const hit of hits) {
        this.counters.add({ ...hit, count: 1 });
        events.push({ site: hit.site, page: hit.page, at: new Date(hit.at) });
      }
      while (inFlight.size >= INSERTS_IN_FLIGHT) await Promise.race(inFlight);
      if (failure !== undefined) break;
      const insert: Promise<unknown> = raw
        .insertMany(events, { ordered: false })
        .catch((error: unknown) => {
          failure ??= error;
        })
        .finally(() => inFlight.delete(insert));
      inFlight.add(insert);
      this.loaded += hits.length;
    }
    await Promise.all(inFlight);
    if (failure !== undefined) throw failure;
  }

  /** Replaces a counter collection's documents with those the cumulative batch would have created. */
  private async rewrite(name: string, operations: ReturnType<CounterBatch['daily']['toOperations']>): Promise<number> {
    const collection = this.counterDb.collection(name);
    await collection.deleteMany({});
    for (let i = 0; i < operations.length; i += COUNTER_CHUNK) {
      const documents = operations.slice(i, i + COUNTER_CHUNK).map(upsertedDocument);
      await collection.insertMany(documents, { ordered: false });
    }
    return operations.length;
  }
}
