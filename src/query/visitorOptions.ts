/**
 * The visitor options of a series read at `now`: minute sketches may be read from the first whole minute inside the
 * seconds retention (a minute document is kept at least that long, secondsRetention.ts) and of a day retention keeps
 * (RETENTION_MINUTES_DAYS), none when they are off.
 */
import { MINUTE_MS } from '../time/buckets';
import type { RetentionCutoffs } from '../time/retentionCutoffs';
import type { VisitorOptions } from './Series';

/** `retained`: what RETENTION_MINUTES_DAYS keeps at `now`; minute sketches of earlier days are dropped. */
export function visitorOptions(
  now: number,
  secondsRetentionMs: number | undefined,
  retained?: RetentionCutoffs,
): VisitorOptions {
  if (secondsRetentionMs === undefined) return {};
  const inWindow = Math.ceil((now - secondsRetentionMs) / MINUTE_MS) * MINUTE_MS;
  return { minutesFrom: Math.max(inWindow, retained?.minutesFrom ?? -Infinity) };
}
