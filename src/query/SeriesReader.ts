/** What the query layer needs from the store: one find per source for many series at once. */
import type { DailyFields, DailyStatsDocument } from '../store/dailyStats';
import type { MonthlyStatsDocument } from '../store/monthlyStats';
import type { SecondStatsDocument } from '../store/secondStats';
import type { SeriesDocumentRange } from '../store/SeriesDocumentRange';

export interface SeriesReader {
  findDaily(ranges: readonly SeriesDocumentRange[], fields: DailyFields): Promise<DailyStatsDocument[]>;
  findMonthly(ranges: readonly SeriesDocumentRange[]): Promise<MonthlyStatsDocument[]>;
  findSeconds(ranges: readonly SeriesDocumentRange[]): Promise<SecondStatsDocument[]>;
}
