/**
 * A stored counter as a number: counters are numbers, but a Long from a huge counter or a missing field (a sparse
 * document) still reads sanely.
 */
export function storedCount(value: unknown): number {
  if (typeof value === 'number') return value;
  if (value === undefined || value === null) return 0;
  return Number(value);
}
