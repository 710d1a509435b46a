/** ISO-8601 with the zone's offset at that instant (`2026-03-29T03:00:00+02:00`): readable, and exact as an instant. */
import { offsetAt } from './zoneOffset';

export function formatWithOffset(zone: string, t: number): string {
  const offset = offsetAt(zone, t);
  const wall = new Date(t + offset).toISOString();
  const abs = Math.abs(offset) / 60_000;
  const sign = offset < 0 ? '-' : '+';
  const fraction = t % 1_000 === 0 ? '' : wall.slice(19, 23);
  return `${wall.slice(0, 19)}${fraction}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
