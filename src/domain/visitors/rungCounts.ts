/** How many registers have each ladder rung set: all the large-range estimator needs from a sketch. */
import { LADDER_BITS, LADDER_MASK } from './registerLayout';

export function rungCounts(words: Int32Array): Float64Array {
  const counts = new Int32Array(LADDER_BITS);
  // Only the rungs set, lowest first: a register holds a few, and a 90-day dashboard estimates 1,800 sketches.
  for (let register = 0; register < words.length; register++) {
    let bits = (words[register] as number) & LADDER_MASK;
    while (bits !== 0) {
      const lowest = bits & -bits;
      (counts[31 - Math.clz32(lowest)] as number)++;
      bits ^= lowest;
    }
  }
  return Float64Array.from(counts);
}
