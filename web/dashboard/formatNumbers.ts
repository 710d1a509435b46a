/**
 * How the dashboard writes numbers: counts with thousands separators ("1,204"), ratios with up to two decimals,
 * rates as whole percent ("50 %"), durations in minutes and seconds ("2m 05s"), changes as an arrow and whole
 * percent ("▲ 12 %") or, between two rates, percentage points ("▼ 5 pp"). Null, a number the API does not have, is
 * "—", never 0.
 */
const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const RATIO = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export const MISSING = '—';

export function formatCount(value: number | null | undefined): string {
  return value == null ? MISSING : COUNT.format(value);
}

export function formatRatio(value: number | null | undefined): string {
  return value == null || !Number.isFinite(value) ? MISSING : RATIO.format(value);
}

/** A rate from 0 to 1 as whole percent: 0.5 is "50 %". */
export function formatPercent(rate: number | null | undefined): string {
  return rate == null || !Number.isFinite(rate) ? MISSING : `${COUNT.format(Math.round(rate * 100))} %`;
}

/** Seconds, rounded to whole ones: "45s", "2m 05s", "1h 02m 05s". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return MISSING;
  const whole = Math.round(seconds);
  const s = whole % 60;
  const m = Math.floor(whole / 60) % 60;
  const h = Math.floor(whole / 3600);
  const two = (n: number): string => String(n).padStart(2, '0');
  if (h > 0) return `${COUNT.format(h)}h ${two(m)}m ${two(s)}s`;
  return m > 0 ? `${m}m ${two(s)}s` : `${s}s`;
}

export type Direction = 'up' | 'down' | 'flat';

/** A relative change (0.12 for +12 %) as shown: "▲ 12 %", "▼ 3 %", "▲ <1 %", "± 0 %". */
export function formatChange(change: number): { text: string; direction: Direction } {
  if (change === 0) return { text: '± 0 %', direction: 'flat' };
  const direction: Direction = change > 0 ? 'up' : 'down';
  const percent = Math.round(Math.abs(change) * 100);
  return { text: `${direction === 'up' ? '▲' : '▼'} ${percent === 0 ? '<1' : COUNT.format(percent)} %`, direction };
}

/**
 * The change between two rates (0 to 1) in percentage points, as shown: "▲ 13 pp", "▼ <1 pp", "± 0 pp". A relative
 * change of a rate ("▲ 50 %" for 25 % → 37.5 %) reads like a change of the rate itself.
 */
export function formatPointsChange(current: number, earlier: number): { text: string; direction: Direction } {
  const points = (current - earlier) * 100;
  if (points === 0) return { text: '± 0 pp', direction: 'flat' };
  const direction: Direction = points > 0 ? 'up' : 'down';
  const whole = Math.round(Math.abs(points));
  return { text: `${direction === 'up' ? '▲' : '▼'} ${whole === 0 ? '<1' : COUNT.format(whole)} pp`, direction };
}
