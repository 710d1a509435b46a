import fc from 'fast-check';
import { LADDER_BITS } from '../../../../src/domain/visitors/registerLayout';
import { rungCounts } from '../../../../src/domain/visitors/rungCounts';

/** Rung by rung over every register: the definition. */
function naive(words: Int32Array): number[] {
  return Array.from({ length: LADDER_BITS }, (_, rung) => words.reduce((sum, word) => sum + ((word >>> rung) & 1), 0));
}

describe('rungCounts', () => {
  it('counts, per rung, the registers with that rung set, ignoring fingerprint bits', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0x7fffffff }), { maxLength: 300 }), (values) => {
        const words = Int32Array.from(values);
        expect(Array.from(rungCounts(words))).toEqual(naive(words));
      }),
    );
  });

  it('counts the top rung and a word with every rung set', () => {
    const words = Int32Array.of(1 << (LADDER_BITS - 1), (1 << LADDER_BITS) - 1, 0x7ff00000);
    const counts = Array.from(rungCounts(words));
    expect(counts[LADDER_BITS - 1]).toBe(2);
    expect(counts.slice(0, LADDER_BITS - 1).every((count) => count === 1)).toBe(true);
  });
});
