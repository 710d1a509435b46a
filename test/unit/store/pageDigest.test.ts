import { decodePageDigest, encodePageDigest } from '../../../src/store/pageDigest';
import { isCurrentDigest, monthHits } from '../../../src/store/pageDigests';
import type { PageDigestDocument } from '../../../src/store/pageDigests';
import { VisitorSketch } from '../../../src/domain/visitors/VisitorSketch';
import { sketchOf } from '../domain/visitors/sketchOf';

describe('page digest bytes', () => {
  it('reads back every page, its hits and its sketch, whatever the lengths', () => {
    const entries = [
      { page: '/', hits: 0, sketch: VisitorSketch.empty(11).toPacked() },
      { page: '/a/ü/日本', hits: 127, sketch: sketchOf(11, 1, 0, 10).toPacked() },
      { page: `/${'x'.repeat(2_047)}`, hits: 128, sketch: sketchOf(11, 2, 0, 5_000).toPacked() },
      { page: '/big', hits: Number.MAX_SAFE_INTEGER, sketch: sketchOf(13, 3, 0, 50).toPacked() },
    ];
    const decoded = decodePageDigest(encodePageDigest(entries));
    expect(decoded.map(({ page, hits, sketch }) => ({ page, hits, sketch: Array.from(sketch) }))).toEqual(
      entries.map(({ page, hits, sketch }) => ({ page, hits, sketch: Array.from(sketch) })),
    );
  });

  it('holds nothing but its version when no page had hits', () => {
    expect(Array.from(encodePageDigest([]))).toEqual([1]);
    expect(decodePageDigest(Uint8Array.of(1))).toEqual([]);
  });

  it.each([
    ['an unknown version', Uint8Array.of(2), 'page digest must start with version 1, got 2'],
    ['a cut number', Uint8Array.of(1, 0x80), 'page digest ends inside a number at byte 2'],
    ['a cut path', Uint8Array.of(1, 5, 47), 'page digest holds 1 byte(s) where 5 were announced'],
  ])('refuses %s', (_, bytes, message) => {
    expect(() => decodePageDigest(bytes)).toThrow(message);
  });

  it('refuses hits that are not a count', () => {
    expect(() => encodePageDigest([{ page: '/', hits: -1, sketch: Uint8Array.of() }])).toThrow(
      'page digest hits must be a count, got -1',
    );
  });
});

describe('isCurrentDigest', () => {
  const day = (n: number): PageDigestDocument => ({
    _id: '20260310/a.example',
    metadata: { site: 'a.example', date: new Date(Date.UTC(2026, 2, 10)), level: 'day' },
    n,
    z: Uint8Array.of(1),
  });
  const month = (n: Record<string, number>): PageDigestDocument => ({
    _id: '202603/a.example',
    metadata: { site: 'a.example', date: new Date(Date.UTC(2026, 2, 1)), level: 'month' },
    n,
    z: Uint8Array.of(1),
  });

  it.each([
    ['a day whose total is unchanged', day(7), { '9': 3, '10': 7 }, true],
    ['a day a late hit counted since', day(7), { '10': 8 }, false],
    ['a day the month no longer counts', day(7), { '9': 3 }, false],
    ['a month with the same hits per day', month({ '1': 2, '10': 7 }), { '1': 2, '10': 7, '11': 0 }, true],
    ['a month with a late hit on one day', month({ '1': 2, '10': 7 }), { '1': 2, '10': 8 }, false],
    ['a month with hits on a new day', month({ '1': 2 }), { '1': 2, '31': 1 }, false],
  ])('%s: %s', (_, digest, monthDaily, current) => {
    expect(isCurrentDigest(digest, monthDaily)).toBe(current);
  });

  it('leaves days without hits out of a month', () => {
    expect(monthHits({ '1': 0, '2': 4, x: 'y' })).toEqual({ '2': 4 });
  });
});
