import { encodeCompactSketch, mergeCompactSketch } from '../../../../src/domain/visitors/compactSketch';
import { VisitorSketch } from '../../../../src/domain/visitors/VisitorSketch';
import { sketchOf } from './sketchOf';

const words = (value: VisitorSketch): number[] => Array.from(value.words);

/** The round trip at every fill is in packedSketch.test.ts, beside toPacked's. */
describe('compact sketch coding', () => {
  it('ORs into what the sketch holds, and reads a finer sketch as its fold', () => {
    const into = sketchOf(11, 1, 0, 500);
    const fine = sketchOf(13, 2, 0, 3_000);
    const expected = words(VisitorSketch.empty(11).merge(into).merge(fine));
    mergeCompactSketch(into, encodeCompactSketch(fine));
    expect(words(into)).toEqual(expected);
    expect(() => mergeCompactSketch(VisitorSketch.empty(13), encodeCompactSketch(sketchOf(11, 3, 0, 10)))).toThrow(
      'cannot read a visitor sketch coded at precision 11 at precision 13',
    );
  });

  it('ORs one read into several sketches of one precision, each keeping what it held', () => {
    const coded = encodeCompactSketch(sketchOf(11, 5, 0, 800));
    const targets = [sketchOf(11, 6, 0, 50), VisitorSketch.empty(11), sketchOf(11, 7, 0, 2_000)];
    const expected = targets.map((target) => {
      const one = VisitorSketch.empty(11).merge(target);
      mergeCompactSketch(one, coded);
      return words(one);
    });
    mergeCompactSketch(targets, coded);
    expect(targets.map(words)).toEqual(expected);
    expect(() => mergeCompactSketch([VisitorSketch.empty(11), VisitorSketch.empty(10)], coded)).toThrow(
      'sketches merged from one coded sketch must share a precision',
    );
  });

  it.each([
    // [visitors, at most bytes per set register]: one-visitor words in 2 bytes and gaps in 1, against 6 packed.
    [100, 3.2],
    [1_000, 3.4],
  ])('codes a page sketch of %i visitors in at most %f bytes per set register', (visitors, perRegister) => {
    const sketch = sketchOf(11, 4, 0, visitors);
    const used = sketch.words.filter((word) => word !== 0).length;
    expect(encodeCompactSketch(sketch).length).toBeLessThanOrEqual(4 + perRegister * used);
  });

  it('writes a saturated sketch in its dense packed form, which is smaller there', () => {
    const sketch = sketchOf(11, 4, 0, 20_000);
    expect(Array.from(encodeCompactSketch(sketch))).toEqual(Array.from(sketch.toPacked()));
    const read = VisitorSketch.empty(11);
    mergeCompactSketch(read, encodeCompactSketch(sketch));
    expect(words(read)).toEqual(words(sketch));
  });

  it('codes any word, not only one visitor', () => {
    const sketch = VisitorSketch.empty(4);
    sketch.apply({ register: 0, value: 0x7fffffff });
    sketch.apply({ register: 15, value: 1 });
    const read = VisitorSketch.empty(4);
    mergeCompactSketch(read, encodeCompactSketch(sketch));
    expect(words(read)).toEqual(words(sketch));
  });

  it.each([
    [
      'bytes after its registers',
      Uint8Array.of(3, 4, 0, 0),
      'coded visitor sketch holds 1 byte(s) after its registers',
    ],
    ['a cut number', Uint8Array.of(3, 4, 1, 0, 0x80), 'coded visitor sketch ends inside a number at byte 5'],
    ['a register past its precision', Uint8Array.of(3, 4, 1, 16, 0), 'has a bad register'],
  ])('refuses %s', (_, bytes, message) => {
    expect(() => mergeCompactSketch(VisitorSketch.empty(4), bytes)).toThrow(message);
  });
});
