import {
  coalesceByMaps,
  coalesceByScan,
  coalesceVisitDeltas,
  SCAN_LIMIT,
} from '../../../../src/domain/visits/coalesceVisitDeltas';
import type { VisitDelta, VisitField } from '../../../../src/domain/visits/VisitDelta';
import { VISIT_FIELDS } from '../../../../src/domain/visits/VisitDelta';
import type { DimensionValues } from '../../../../src/domain/dimensions/Dimension';
import { seededRandom } from '../../../../bench/shared/random';

const T0 = Date.parse('2026-02-28T23:50:00Z');
const DIMENSIONS_A = { browser: 'Firefox' } as unknown as DimensionValues;
const DIMENSIONS_B = { browser: 'Firefox' } as unknown as DimensionValues;

function page(name: string, field: VisitField, amount: number, start = T0): VisitDelta {
  return { page: name, start, field, amount };
}

function site(field: VisitField, amount: number, dimensions?: DimensionValues, start = T0): VisitDelta {
  return { page: undefined, start, field, amount, dimensions };
}

/** The same sums by a key string per change: what both paths must agree with. */
function reference(deltas: readonly VisitDelta[]): VisitDelta[] {
  const identities = new Map<unknown, number>();
  const keyOf = (d: VisitDelta) => {
    const owner = d.page ?? d.dimensions ?? 'site';
    if (typeof owner !== 'string' && !identities.has(owner)) identities.set(owner, identities.size);
    const ownerKey = typeof owner === 'string' ? `s:${owner}` : `o:${identities.get(owner)}`;
    return `${ownerKey}|${d.start}|${d.field}`;
  };
  const order: string[] = [];
  const firsts = new Map<string, VisitDelta>();
  const sums = new Map<string, number>();
  for (const d of deltas) {
    const key = keyOf(d);
    if (!firsts.has(key)) {
      firsts.set(key, d);
      order.push(key);
    }
    sums.set(key, (sums.get(key) ?? 0) + d.amount);
  }
  return order
    .filter((key) => sums.get(key) !== 0)
    .map((key) => ({ ...(firsts.get(key) as VisitDelta), amount: sums.get(key) as number }));
}

describe('coalesceVisitDeltas', () => {
  it.each<[string, VisitDelta[], VisitDelta[]]>([
    ['nothing', [], []],
    [
      'pageviews of one page and visit are summed, in first-seen order',
      [page('/a', 'p', 1), page('/b', 'v', 1), page('/a', 'p', 2)],
      [page('/a', 'p', 3), page('/b', 'v', 1)],
    ],
    [
      'a bounce undone in the same window writes nothing',
      [site('b', 1), page('/a', 'b', 1), site('b', -1)],
      [page('/a', 'b', 1)],
    ],
    [
      'visits that started at other instants keep their own counters',
      [page('/a', 'v', 1, T0), page('/a', 'v', 1, T0 + 1)],
      [page('/a', 'v', 1, T0), page('/a', 'v', 1, T0 + 1)],
    ],
    [
      'site changes under other dimension objects are other counters, even with equal values',
      [site('v', 1, DIMENSIONS_A), site('v', 1, DIMENSIONS_B), site('v', 1, DIMENSIONS_A), site('v', 1)],
      [site('v', 2, DIMENSIONS_A), site('v', 1, DIMENSIONS_B), site('v', 1)],
    ],
    [
      'a page and the site never share a counter',
      [page('/a', 's', 5), site('s', 5)],
      [page('/a', 's', 5), site('s', 5)],
    ],
  ])('%s', (_name, deltas, expected) => {
    expect(coalesceByScan(deltas)).toEqual(expected);
    expect(coalesceByMaps(deltas)).toEqual(expected);
    expect(coalesceVisitDeltas(deltas)).toEqual(expected);
  });

  it('agrees with a key-string reference on random lists, short and long', () => {
    const random = seededRandom(27);
    const dimensions = [DIMENSIONS_A, DIMENSIONS_B, undefined];
    for (let round = 0; round < 500; round++) {
      const length = Math.floor(random() * (round % 2 === 0 ? SCAN_LIMIT : 4 * SCAN_LIMIT));
      const deltas: VisitDelta[] = [];
      for (let i = 0; i < length; i++) {
        const field = VISIT_FIELDS[Math.floor(random() * VISIT_FIELDS.length)] as VisitField;
        const start = T0 + Math.floor(random() * 3) * 60_000;
        const amount = Math.floor(random() * 5) - 2;
        deltas.push(
          random() < 0.5
            ? page(`/p${Math.floor(random() * 4)}`, field, amount, start)
            : site(field, amount, dimensions[Math.floor(random() * dimensions.length)], start),
        );
      }
      const expected = reference(deltas);
      expect(coalesceByScan(deltas)).toEqual(expected);
      expect(coalesceByMaps(deltas)).toEqual(expected);
      expect(coalesceVisitDeltas(deltas)).toEqual(expected);
    }
  });

  it('returns a counter changed once as the change itself', () => {
    const only = page('/a', 'e', 1);
    expect(coalesceByScan([only])[0]).toBe(only);
    expect(coalesceByMaps([only])[0]).toBe(only);
  });
});
