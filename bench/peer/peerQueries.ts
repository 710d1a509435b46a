/**
 * The equivalent queries of the peer benchmark and their exact answers from the generated hits: the site's total over
 * the last 7 days, the most popular page by day (30 days) and by hour (7 days), the top 10 pages and the top 10
 * referrers over 30 days. Ranges are whole UTC days ending with today. tally counts hits; GoatCounter counts a
 * visitor's first hit on each page, and groups referrers its own way: each system says what it counts and how it
 * keys a referrer, and the truth follows it.
 */
import type { PeerHit } from './peerTraffic';

export type PeerQueryKind =
  'siteTotal7Days' | 'pageByDay30Days' | 'pageByHour7Days' | 'topPages30Days' | 'referrers30Days';

/** [from, to) in epoch ms, both UTC midnights. */
export interface DayRange {
  readonly from: number;
  readonly to: number;
}

export interface PeerQuery {
  readonly kind: PeerQueryKind;
  readonly label: string;
  readonly range: DayRange;
  /** The page of the per-page series. */
  readonly page: string;
}

export interface RankedRow {
  readonly key: string;
  readonly count: number;
}

/** A total, a series (one count per bucket) or ranked rows, most counted first. */
export type PeerAnswer = number | number[] | RankedRow[];

/** What a system counts and how it names a hit's referrer. */
export interface Counting {
  readonly firstVisitsOnly: boolean;
  readonly referrerKey: (hit: PeerHit) => string;
}

export const RANKED_ROWS = 10;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export function peerQueries(now: number, page: string): PeerQuery[] {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const days = (n: number): DayRange => ({ from: today - (n - 1) * DAY_MS, to: today + DAY_MS });
  return [
    { kind: 'siteTotal7Days', label: 'site total, 7 days', range: days(7), page },
    { kind: 'pageByDay30Days', label: 'a page by day, 30 days', range: days(30), page },
    { kind: 'pageByHour7Days', label: 'a page by hour, 7 days', range: days(7), page },
    { kind: 'topPages30Days', label: 'top 10 pages, 30 days', range: days(30), page },
    { kind: 'referrers30Days', label: 'top 10 referrers, 30 days', range: days(30), page },
  ];
}

/** The exact answer, and for ranked queries every key's count (ties at the cut may list either key). */
export interface Truth {
  readonly answer: PeerAnswer;
  readonly counts?: ReadonlyMap<string, number>;
}

export function truthOf(query: PeerQuery, hits: readonly PeerHit[], counting: Counting): Truth {
  const { from, to } = query.range;
  const counted = hits.filter((h) => (!counting.firstVisitsOnly || h.firstVisit) && h.at >= from && h.at < to);
  switch (query.kind) {
    case 'siteTotal7Days':
      return { answer: counted.length };
    case 'pageByDay30Days':
    case 'pageByHour7Days': {
      const bucket = query.kind === 'pageByDay30Days' ? DAY_MS : HOUR_MS;
      const values = new Array<number>((to - from) / bucket).fill(0);
      for (const hit of counted) {
        const index = Math.floor((hit.at - from) / bucket);
        if (hit.page === query.page) values[index] = (values[index] as number) + 1;
      }
      return { answer: values };
    }
    case 'topPages30Days':
    case 'referrers30Days': {
      const counts = new Map<string, number>();
      for (const hit of counted) {
        const key = query.kind === 'topPages30Days' ? hit.page : counting.referrerKey(hit);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const ranked = [...counts]
        .map(([key, count]) => ({ key, count }))
        .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
        .slice(0, RANKED_ROWS);
      return { answer: ranked, counts };
    }
  }
}

/** Why `answer` is not the truth, or undefined when it is (ranked rows: the same counts, each right for its key). */
export function mismatch(answer: PeerAnswer, truth: Truth): string | undefined {
  const expected = truth.answer;
  if (typeof expected === 'number') return answer === expected ? undefined : `${String(answer)}, expected ${expected}`;
  if (!Array.isArray(answer) || answer.length !== expected.length)
    return `${Array.isArray(answer) ? answer.length : 'no'} rows or buckets, expected ${expected.length}`;
  if (isSeries(expected)) {
    const index = expected.findIndex((value, i) => answer[i] !== value);
    return index < 0 ? undefined : `bucket ${index}: ${String(answer[index])}, expected ${expected[index]}`;
  }
  const rows = answer as RankedRow[];
  const wrong = rows.find((row) => truth.counts?.get(row.key) !== row.count);
  if (wrong) return `${JSON.stringify(wrong.key)}: ${wrong.count}, expected ${truth.counts?.get(wrong.key) ?? 0}`;
  const index = expected.findIndex((row, i) => rows[i]?.count !== row.count);
  return index < 0 ? undefined : `row ${index + 1} counts ${rows[index]?.count}, expected ${expected[index]?.count}`;
}

function isSeries(answer: PeerAnswer): answer is number[] {
  return Array.isArray(answer) && answer.every((value) => typeof value === 'number');
}

/** A short printable form: the total, a series' sum and peak, or the first ranked rows. */
export function describeAnswer(answer: PeerAnswer): string {
  if (typeof answer === 'number') return answer.toLocaleString('en-US');
  if (isSeries(answer)) {
    const sum = answer.reduce((a, b) => a + b, 0);
    return `${sum.toLocaleString('en-US')} over ${answer.length} buckets, peak ${Math.max(0, ...answer)}`;
  }
  const shown = answer.slice(0, 3).map((row) => `${row.key || '(none)'} ${row.count.toLocaleString('en-US')}`);
  return `${shown.join(', ')}${answer.length > 3 ? `, … (${answer.length} rows)` : ''}`;
}
