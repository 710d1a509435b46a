/**
 * Validates a live-series subscription at the boundary: site/page as everywhere, a bounded window, SECOND enabled;
 * visit figures at MINUTE where visits and second-level counters are on.
 */
import { BadUserInputError } from '../errors/BadUserInputError';
import { parsePage } from '../domain/parsePage';
import { parseSite } from '../domain/parseSite';
import { HOUR_MS, SECOND_MS } from '../time/buckets';
import { Granularity } from '../time/Granularity';
import type { LiveGranularity, LiveSeriesSpec } from './LiveSeries';
import { secondsDisabledError } from './parseSeriesRequest';
import { parseTimeZone } from './parseTimeZone';
import type { SeriesLimits } from './parseSeriesRequest';

/** Window bounds in seconds: an hour of seconds (3,600 buckets), a day of minutes (1,440 buckets). */
export const LIVE_WINDOW_SECONDS: Record<LiveGranularity, { min: number; max: number }> = {
  [Granularity.SECOND]: { min: 1, max: 3_600 },
  [Granularity.MINUTE]: { min: 60, max: 24 * 3_600 },
};

export function parseLiveSeriesRequest(
  input: {
    site: string;
    page: string;
    granularity: LiveGranularity;
    window: number;
    timeZone?: string | null;
    /** The subscription selected visitors. */
    visitors?: boolean;
    /** The subscription selected visit figures. */
    visits?: boolean;
  },
  limits: SeriesLimits,
): LiveSeriesSpec {
  const site = parseSite(input.site);
  const page = parsePage(input.page);
  const timeZone = parseTimeZone(input.timeZone);
  const { min, max } = LIVE_WINDOW_SECONDS[input.granularity];
  if (!Number.isInteger(input.window) || input.window < min || input.window > max) {
    throw new BadUserInputError(
      `window must be an integer from ${min} to ${max} seconds for granularity ${input.granularity}, got ${input.window}`,
      'window',
    );
  }
  const windowMs = input.window * SECOND_MS;
  if (input.granularity === Granularity.SECOND) {
    if (limits.secondsRetentionMs === undefined) throw secondsDisabledError();
    if (windowMs > limits.secondsRetentionMs) {
      throw new BadUserInputError(
        `window must be within the second-level retention window of ${limits.secondsRetentionMs / HOUR_MS} hours, got ${input.window} seconds`,
        'window',
      );
    }
  }
  const visitors = input.visitors ? { secondsRetentionMs: limits.secondsRetentionMs } : undefined;
  // Visit counters are kept per minute at the finest, in minute documents: MINUTE only, and only where those are.
  const visits =
    input.visits === true &&
    input.granularity === Granularity.MINUTE &&
    limits.visits !== false &&
    limits.secondsRetentionMs !== undefined
      ? { secondsRetentionMs: limits.secondsRetentionMs }
      : undefined;
  return {
    site,
    page,
    granularity: input.granularity,
    windowMs,
    timeZone,
    ...(visitors ? { visitors } : {}),
    ...(visits ? { visits } : {}),
  };
}
