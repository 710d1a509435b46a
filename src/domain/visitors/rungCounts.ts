/** How many registers have each ladder rung set: all the large-range estimator needs from a sketch. */
import { LADDER_BITS } from './registerLayout';

export function rungCounts(words: Int32Array): Float64Array {
  const counts = new Float64Array(LADDER_BITS);
  for (let register = 0; register < words.length; register++) {
    const word = words[register] as number;
    for (let rung = 0; rung < LADDER_BITS; rung++) counts[rung] += (word >>> rung) & 1;
  }
  return counts;
}
