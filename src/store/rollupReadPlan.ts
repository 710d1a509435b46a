/**
 * Which page rollups answer a ranking of whole UTC days (pageRollups), from the marker and the site's month rollups
 * alone: a month whose every day with hits is asked for is read whole from its month document, days the month
 * document counts nothing on are empty, the other days are read from their day documents, and days before the
 * marker are left to the site-day documents earlier versions wrote. Pure.
 */
import { DAY_MS, startOfMonth } from '../time/buckets';

export interface MonthRollupCounts {
  /** Every hit the month's rollup counted (`t`). */
  readonly total: number;
  /** Hits per day of the month (`d`), "1" … "31". */
  readonly days: Readonly<Record<string, unknown>>;
  /** Whether its pages add up to `total` (completeRollup). */
  readonly complete: boolean;
}

export interface RollupReadPlan {
  /** Month starts answered by their month document: every requested day of them is covered. */
  readonly wholeMonths: number[];
  /** Days that have no hits. */
  readonly emptyDays: number[];
  /** Days to read from their day documents. */
  readonly dayDocuments: number[];
  /** Days the marker does not vouch for: read as earlier versions wrote them. */
  readonly earlierDays: number[];
}

export function rollupReadPlan(
  days: readonly number[],
  marker: number | undefined,
  months: ReadonlyMap<number, MonthRollupCounts>,
  options: { readonly wholeMonths: boolean },
): RollupReadPlan {
  const plan: RollupReadPlan = { wholeMonths: [], emptyDays: [], dayDocuments: [], earlierDays: [] };
  const byMonth = new Map<number, number[]>();
  for (const day of new Set(days)) {
    if (marker === undefined || day < marker) {
      plan.earlierDays.push(day);
      continue;
    }
    const month = startOfMonth(day);
    const list = byMonth.get(month) ?? [];
    list.push(day);
    byMonth.set(month, list);
  }
  for (const [month, asked] of byMonth) {
    const counts = months.get(month);
    // Every hit of a vouched-for day counts in its month's document: none, no hits.
    if (counts === undefined) {
      plan.emptyDays.push(...asked);
      continue;
    }
    const hits = (day: number): boolean => {
      const count = counts.days[String(new Date(day).getUTCDate())];
      return typeof count === 'number' && count !== 0;
    };
    if (options.wholeMonths && month >= (marker as number) && counts.complete && counts.total > 0) {
      const askedSet = new Set(asked);
      const covered = Object.entries(counts.days).every(
        ([dayOfMonth, count]) =>
          typeof count !== 'number' || count === 0 || askedSet.has(month + (Number(dayOfMonth) - 1) * DAY_MS),
      );
      if (covered) {
        plan.wholeMonths.push(month);
        continue;
      }
    }
    for (const day of asked) (hits(day) ? plan.dayDocuments : plan.emptyDays).push(day);
  }
  for (const list of [plan.wholeMonths, plan.emptyDays, plan.dayDocuments, plan.earlierDays])
    list.sort((a, b) => a - b);
  return plan;
}
