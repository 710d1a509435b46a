/**
 * Oracles for zoned series that share no code with src/time: hits counted by bucket membership, and local
 * wall-clock fields read with Intl's formatToParts (src uses format() and its own arithmetic).
 */
import type { Hit } from '../../src/domain/Hit';

/** Hits per bucket, by membership in [start, next start) (the last bucket ends at `end`). */
export function naiveCounts(hits: readonly Hit[], starts: readonly number[], end: number): number[] {
  return starts.map((start, i) => {
    const stop = starts[i + 1] ?? end;
    return hits.filter((hit) => hit.at >= start && hit.at < stop).reduce((sum, hit) => sum + hit.count, 0);
  });
}

/** The local wall clock at `t` in `zone`: { weekday, day, hour, minute }. */
export function localParts(zone: string, t: number): { weekday: string; day: number; hour: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    weekday: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(t);
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '';
  return { weekday: get('weekday'), day: Number(get('day')), hour: Number(get('hour')), minute: Number(get('minute')) };
}
