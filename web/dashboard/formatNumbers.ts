/**
 * How the dashboard writes numbers: counts with thousands separators ("1,204"), ratios with up to two decimals,
 * changes as an arrow and whole percent ("▲ 12 %"). Null, a number the API does not have, is "—", never 0.
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

export type Direction = 'up' | 'down' | 'flat';

/** A relative change (0.12 for +12 %) as shown: "▲ 12 %", "▼ 3 %", "▲ <1 %", "± 0 %". */
export function formatChange(change: number): { text: string; direction: Direction } {
  if (change === 0) return { text: '± 0 %', direction: 'flat' };
  const direction: Direction = change > 0 ? 'up' : 'down';
  const percent = Math.round(Math.abs(change) * 100);
  return { text: `${direction === 'up' ? '▲' : '▼'} ${percent === 0 ? '<1' : COUNT.format(percent)} %`, direction };
}
