/** Writes and reads of the hit counters (daily and monthly collections), over one Database. */
import type { AnyBulkWriteOperation, Collection, Document, WriteConcern } from 'mongodb';
import { bulkUpsert } from './bulkUpsert';
import type { CounterBatch } from './CounterBatch';
import type { Database } from './connectDatabase';
import { dailyCollection, dailyIndexes, findDaily, preallocatedDaily } from './dailyStats';
import type { DailyFields, DailyStatsDocument } from './dailyStats';
import { startOfMonth } from '../time/buckets';
import { findMonthly, monthlyCollection, monthlyDocumentId, monthlyIndexes, preallocatedMonthly } from './monthlyStats';
import type { MonthlyStatsDocument } from './monthlyStats';
import type { SeriesDocumentRange } from './SeriesDocumentRange';
import { translateDriverError } from './translateDriverError';

export interface PageDay {
  readonly site: string;
  readonly page: string;
  readonly day: number;
}

export class CounterStore {
  private readonly daily: Collection<DailyStatsDocument>;
  private readonly monthly: Collection<MonthlyStatsDocument>;
  private readonly writeConcern: WriteConcern | undefined;

  constructor(database: Database, options: { writeConcern?: string | number | undefined } = {}) {
    this.daily = dailyCollection(database.db);
    this.monthly = monthlyCollection(database.db);
    this.writeConcern =
      options.writeConcern === undefined ? undefined : { w: options.writeConcern as number | 'majority' };
  }

  async ensureIndexes(): Promise<void> {
    await this.daily.createIndexes(dailyIndexes.map((index) => ({ ...index, key: { ...index.key } })));
    await this.monthly.createIndexes(monthlyIndexes.map((index) => ({ ...index, key: { ...index.key } })));
  }

  /** One bulkWrite per collection, however many hits the batch holds. */
  async write(batch: CounterBatch): Promise<void> {
    await Promise.all([
      bulkUpsert(this.daily as unknown as Collection<Document>, batch.daily.toOperations(), this.writeConcern),
      bulkUpsert(this.monthly as unknown as Collection<Document>, batch.monthly.toOperations(), this.writeConcern),
    ]);
  }

  /** Creates zero-filled daily and monthly documents; existing documents are left exactly as they are. */
  async preallocate(pageDays: readonly PageDay[]): Promise<void> {
    if (pageDays.length === 0) return;
    // Pages of one month share a monthly document: preallocate it once.
    const monthly = new Map<string, AnyBulkWriteOperation<Document>>();
    for (const { site, page, day } of pageDays) {
      monthly.set(monthlyDocumentId(site, page, startOfMonth(day)), preallocatedMonthly(site, page, day));
    }
    await Promise.all([
      bulkUpsert(
        this.daily as unknown as Collection<Document>,
        pageDays.map((p) => preallocatedDaily(p.site, p.page, p.day)),
        this.writeConcern,
      ),
      bulkUpsert(this.monthly as unknown as Collection<Document>, [...monthly.values()], this.writeConcern),
    ]);
  }

  async findDaily(ranges: readonly SeriesDocumentRange[], fields: DailyFields): Promise<DailyStatsDocument[]> {
    try {
      return await findDaily(this.daily, ranges, fields);
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  async findMonthly(ranges: readonly SeriesDocumentRange[]): Promise<MonthlyStatsDocument[]> {
    try {
      return await findMonthly(this.monthly, ranges);
    } catch (error) {
      throw translateDriverError(error);
    }
  }
}
