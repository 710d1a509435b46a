/**
 * The acceptance tests' oracle: hits and distinct visitors recounted from what a test sent, with plain Maps and
 * Date's UTC calendar, per day, per month, per value of a dimension. Independent of tally's code: the values each
 * hit must count under come from the test's own pinned tables (dimensionInputs.ts).
 */

export const DIMENSION_NAMES = [
  'SOURCE',
  'UTM_SOURCE',
  'UTM_MEDIUM',
  'UTM_CAMPAIGN',
  'BROWSER',
  'OS',
  'DEVICE',
  'COUNTRY',
] as const;

export type DimensionName = (typeof DIMENSION_NAMES)[number];

export type DimensionValues = Readonly<Record<DimensionName, string>>;

/** One hit as sent, and what it must be counted as. */
export interface SentHit {
  readonly site: string;
  readonly page: string;
  readonly at: number;
  readonly count: number;
  /** Whoever the test means to be one person; undefined when the hit carries no visitor. */
  readonly visitor?: string | undefined;
  readonly values?: DimensionValues | undefined;
}

export interface ValueCount {
  readonly value: string;
  readonly hits: number;
  readonly visitors: number;
}

const DAY_MS = 86_400_000;

export function sumHits(hits: ReadonlyArray<{ readonly count: number }>): number {
  return hits.reduce((sum, hit) => sum + hit.count, 0);
}

export function distinctVisitors(hits: readonly SentHit[]): number {
  return new Set(hits.flatMap((hit) => (hit.visitor === undefined ? [] : [hit.visitor]))).size;
}

export function hitsBetween(hits: readonly SentHit[], from: number, to: number): SentHit[] {
  return hits.filter((hit) => hit.at >= from && hit.at < to);
}

/** Hits and distinct visitors per UTC day from `from` (a UTC midnight), `days` of them. */
export function recountDays(
  hits: readonly SentHit[],
  from: number,
  days: number,
): { hits: number[]; visitors: number[] } {
  const starts = Array.from({ length: days }, (_, i) => from + i * DAY_MS);
  const perDay = starts.map((start) => hitsBetween(hits, start, start + DAY_MS));
  return { hits: perDay.map(sumHits), visitors: perDay.map(distinctVisitors) };
}

/** Hits and distinct visitors in each half-open span [from, to). */
export function recountSpans(
  hits: readonly SentHit[],
  spans: ReadonlyArray<readonly [number, number]>,
): { hits: number[]; visitors: number[] } {
  const perSpan = spans.map(([from, to]) => hitsBetween(hits, from, to));
  return { hits: perSpan.map(sumHits), visitors: perSpan.map(distinctVisitors) };
}

/** Hits and distinct visitors per UTC calendar month holding any of `months` (their starts, UTC). */
export function recountMonths(
  hits: readonly SentHit[],
  monthStarts: readonly number[],
): { hits: number[]; visitors: number[] } {
  const perMonth = monthStarts.map((start) => {
    const d = new Date(start);
    return hitsBetween(hits, start, Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  });
  return { hits: perMonth.map(sumHits), visitors: perMonth.map(distinctVisitors) };
}

/** Every value of `dimension` with its hits and distinct visitors, ranked as `breakdown` ranks: hits, then value. */
export function recountBreakdown(hits: readonly SentHit[], dimension: DimensionName): ValueCount[] {
  const byValue = new Map<string, SentHit[]>();
  for (const hit of hits) {
    if (hit.values === undefined) throw new Error(`hit on ${hit.site}${hit.page} has no expected dimension values`);
    const value = hit.values[dimension];
    byValue.set(value, [...(byValue.get(value) ?? []), hit]);
  }
  return [...byValue.entries()]
    .map(([value, valueHits]) => ({ value, hits: sumHits(valueHits), visitors: distinctVisitors(valueHits) }))
    .sort((a, b) => b.hits - a.hits || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

/**
 * `actual`, with each number within `tolerance` of `expected` replaced by the expected one: compare the result with
 * `expected` and a failure shows only the numbers that are off by more. Null stays null (and fails).
 */
export function within<T extends number | null>(
  actual: readonly T[],
  expected: readonly number[],
  tolerance: number,
): Array<number | null> {
  return actual.map((value, i) => {
    const want = expected[i] as number;
    return value !== null && Math.abs(value - want) <= tolerance ? want : value;
  });
}
