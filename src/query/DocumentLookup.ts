/** The documents fetched for one series, by period start: what fillSeries reads counters and sketches from. */
import type { DailyStatsDocument } from '../store/dailyStats';
import type { MonthlyStatsDocument } from '../store/monthlyStats';
import type { SecondStatsDocument } from '../store/secondStats';
import type { StatsExtras } from '../store/statsExtras';

export interface DocumentLookup {
  /** Daily documents as read for their hourly counters (and their `v` and `d`, when asked for). */
  daily(dayStart: number): (DailyStatsDocument & StatsExtras) | undefined;
  monthly(monthStart: number): (MonthlyStatsDocument & StatsExtras) | undefined;
  /** Daily documents as read for their minutes (a separate find with another projection); defaults to `daily`. */
  minutes?(dayStart: number): DailyStatsDocument | undefined;
  /** Minute documents of `stats.seconds`: SECOND series' counters, and minute sketches. */
  seconds?(minuteStart: number): (SecondStatsDocument & StatsExtras) | undefined;
}
