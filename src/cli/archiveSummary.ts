/** The lines a dump, restore or migrate prints when it is done: documents per collection, and the total. */
import { formatCount } from './ImportProgress';

export function formatCollectionCounts(counts: ReadonlyMap<string, number>): string {
  const width = Math.max(0, ...[...counts.keys()].map((name) => name.length));
  const lines = [...counts].map(([name, count]) => `  ${name.padEnd(width)}  ${formatCount(count).padStart(12)}\n`);
  return lines.join('');
}

export function totalDocuments(counts: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const count of counts.values()) total += count;
  return total;
}

export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
