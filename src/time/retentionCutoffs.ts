/**
 * Which stored detail retention keeps at an instant (issue 30): minute counters of the UTC days from `minutesFrom`
 * on (RETENTION_MINUTES_DAYS), daily documents from `daysFrom` on (RETENTION_DAYS); months are always kept.
 * "Older than N days" is counted in whole UTC days: at any instant of day D, the days D - N to D are kept (N + 1
 * days, today included) and day D - N - 1 and everything before it is not. Pure: `now` is an argument.
 */
import { DAY_MS, HOUR_MS, startOfDay } from './buckets';

export interface RetentionSettings {
  /** RETENTION_MINUTES_DAYS; undefined: minute counters are kept for ever. */
  readonly minutesDays?: number | undefined;
  /** RETENTION_DAYS; undefined: daily documents are kept for ever. */
  readonly days?: number | undefined;
}

export interface RetentionCutoffs {
  /** The first UTC day (epoch ms) whose minute counters are kept; -Infinity when all are. */
  readonly minutesFrom: number;
  /** The first UTC day (epoch ms) whose daily document is kept; -Infinity when all are. */
  readonly daysFrom: number;
}

export const KEEP_EVERYTHING: RetentionCutoffs = { minutesFrom: -Infinity, daysFrom: -Infinity };

/**
 * How long after a day crosses a cutoff the background job drops it. Queries treat it as dropped from the instant
 * it crosses (retentionCutoffs(now)), the job from an hour later (retentionCutoffs(now - RETENTION_GRACE_MS)): a
 * query that started before the crossing has long finished when its data goes, so none reads a dropped day as zero.
 */
export const RETENTION_GRACE_MS = HOUR_MS;

export function retentionCutoffs(now: number, settings: RetentionSettings): RetentionCutoffs {
  const today = startOfDay(now);
  const daysFrom = settings.days === undefined ? -Infinity : today - settings.days * DAY_MS;
  const minutesOwn = settings.minutesDays === undefined ? -Infinity : today - settings.minutesDays * DAY_MS;
  // A day without its daily document has no minute counters either.
  return { minutesFrom: Math.max(minutesOwn, daysFrom), daysFrom };
}

export function retainsEverything(settings: RetentionSettings): boolean {
  return settings.minutesDays === undefined && settings.days === undefined;
}
