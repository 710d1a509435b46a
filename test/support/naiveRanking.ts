import type { Hit } from '../../src/domain/Hit';

/** Pages ranked by their hits in [from, to), most first, ties by page path: topPages' order, counted naively. */
export function naiveRanking(hits: readonly Hit[], from: number, to: number): Array<{ page: string; hits: number }> {
  const totals = new Map<string, number>();
  for (const hit of hits)
    if (hit.at >= from && hit.at < to) totals.set(hit.page, (totals.get(hit.page) ?? 0) + hit.count);
  return [...totals]
    .map(([page, count]) => ({ page, hits: count }))
    .sort((a, b) => b.hits - a.hits || (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
}
