/**
 * The sparse-range count: per register, the fewest visitors that could have set its bits, summed. Each visitor sets
 * one ladder rung and two fingerprint bits, so a register holds at least max(rungs set, ⌈fingerprint bits set / 2⌉).
 * Never more than the true count; less only where visitors of one register share rung and fingerprint pattern.
 */
import { FINGERPRINT_SHIFT, LADDER_MASK } from './registerLayout';

export function sparseVisitorCount(words: Int32Array): number {
  let count = 0;
  for (let register = 0; register < words.length; register++) {
    const word = words[register] as number;
    if (word === 0) continue;
    const rungs = bitCount(word & LADDER_MASK);
    const fingerprints = (bitCount(word >>> FINGERPRINT_SHIFT) + 1) >>> 1;
    count += rungs > fingerprints ? rungs : fingerprints;
  }
  return count;
}

function bitCount(bits: number): number {
  let x = bits - ((bits >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return (x + (x >>> 8) + (x >>> 16) + (x >>> 24)) & 0x3f;
}
