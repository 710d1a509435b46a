import fc from 'fast-check';
import { compareBreakdownRows } from '../../../src/query/breakdownCursor';
import { firstRanked } from '../../../src/query/BreakdownQuery';

describe('firstRanked', () => {
  it('equals sorting every row and taking the first ones, ties by value', () => {
    const row = fc
      .record({ value: fc.string({ maxLength: 3 }), hits: fc.integer({ min: 1, max: 5 }) })
      .map(({ value, hits }) => ({ key: value, value, hits }));
    fc.assert(
      fc.property(
        fc.uniqueArray(row, { selector: (r) => r.value, maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        (rows, count) => {
          expect(firstRanked(rows, count)).toEqual([...rows].sort(compareBreakdownRows).slice(0, count));
        },
      ),
    );
  });
});
