/**
 * The visitor options of a series read at `now`: minute sketches may be read from the first whole minute inside the
 * seconds retention (a minute document is kept at least that long, secondsRetention.ts), none when they are off.
 */
import { MINUTE_MS } from '../time/buckets';
import type { VisitorOptions } from './Series';

export function visitorOptions(now: number, secondsRetentionMs: number | undefined): VisitorOptions {
  if (secondsRetentionMs === undefined) return {};
  return { minutesFrom: Math.ceil((now - secondsRetentionMs) / MINUTE_MS) * MINUTE_MS };
}
