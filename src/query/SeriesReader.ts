/** What the query layer needs from the store: one find per source for many series at once. */
import type { DailyFields, DailyStatsDocument } from '../store/dailyStats';
import type { MonthlyStatsDocument } from '../store/monthlyStats';
import type { SecondStatsDocument } from '../store/secondStats';
import type { SeriesDocumentRange } from '../store/SeriesDocumentRange';
import type { ExtraFields, StatsExtras } from '../store/statsExtras';

/** `extra`: visitor and dimension fields read as well, in the same find (absent: none). */
export interface SeriesReader {
  findDaily(
    ranges: readonly SeriesDocumentRange[],
    fields: DailyFields,
    extra?: ExtraFields,
  ): Promise<Array<DailyStatsDocument & StatsExtras>>;
  findMonthly(
    ranges: readonly SeriesDocumentRange[],
    extra?: ExtraFields,
  ): Promise<Array<MonthlyStatsDocument & StatsExtras>>;
  findSeconds(
    ranges: readonly SeriesDocumentRange[],
    extra?: ExtraFields,
  ): Promise<Array<SecondStatsDocument & StatsExtras>>;
}
