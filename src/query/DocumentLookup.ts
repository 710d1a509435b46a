/** The documents fetched for one series, by period start: what fillSeries reads counters from. */
import type { DailyStatsDocument } from '../store/dailyStats';
import type { MonthlyStatsDocument } from '../store/monthlyStats';
import type { SecondStatsDocument } from '../store/secondStats';

export interface DocumentLookup {
  daily(dayStart: number): DailyStatsDocument | undefined;
  monthly(monthStart: number): MonthlyStatsDocument | undefined;
  /** Second-level minute documents; only SECOND series read them. */
  seconds?(minuteStart: number): SecondStatsDocument | undefined;
}
