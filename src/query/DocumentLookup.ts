/** The documents fetched for one series, by period start: what fillSeries reads counters from. */
import type { DailyStatsDocument } from '../store/dailyStats';
import type { MonthlyStatsDocument } from '../store/monthlyStats';
import type { SecondStatsDocument } from '../store/secondStats';

export interface DocumentLookup {
  /** Daily documents as read for their hourly counters. */
  daily(dayStart: number): DailyStatsDocument | undefined;
  monthly(monthStart: number): MonthlyStatsDocument | undefined;
  /** Daily documents as read for their minutes (a separate find with another projection); defaults to `daily`. */
  minutes?(dayStart: number): DailyStatsDocument | undefined;
  /** Second-level minute documents; only SECOND series read them. */
  seconds?(minuteStart: number): SecondStatsDocument | undefined;
}
