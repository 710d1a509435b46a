import { MAX_VARINT_BYTES, readVarint, readVarintWithin, writeVarint } from '../../../src/domain/varint';

describe('varint', () => {
  it.each([0, 1, 127, 128, 16_383, 16_384, 2 ** 31, Number.MAX_SAFE_INTEGER])('reads back %p as written', (value) => {
    const bytes: number[] = [];
    writeVarint(bytes, value);
    const at = { offset: 0 };
    expect(readVarint(Uint8Array.from(bytes), at, 'test')).toBe(value);
    expect(at.offset).toBe(bytes.length);
    expect(bytes.length).toBeLessThanOrEqual(MAX_VARINT_BYTES);
  });

  it('names the layout and the byte where a number is cut', () => {
    expect(() => readVarint(Uint8Array.of(0x80, 0x80), { offset: 0 }, 'test layout')).toThrow(
      'test layout ends inside a number at byte 2',
    );
  });

  it('gives undefined for a number longer than the bytes allowed', () => {
    expect(readVarintWithin(Uint8Array.of(0x80, 0x80, 1), { offset: 0 }, 2)).toBeUndefined();
    expect(readVarintWithin(Uint8Array.of(0x80, 0x80, 1), { offset: 0 }, 3)).toBe(2 ** 14);
  });
});
