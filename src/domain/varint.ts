/**
 * Unsigned LEB128 numbers (7 bits a byte, low first) up to 2^53, for the binary layouts of page digests, coded
 * sketches and packed counters: small numbers, most of them below 128, take one byte. Pure.
 */

/** Bytes of a number up to Number.MAX_SAFE_INTEGER (53 bits, 7 a byte). */
export const MAX_VARINT_BYTES = 8;

export function writeVarint(into: number[], value: number): void {
  let rest = value;
  while (rest >= 0x80) {
    into.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  into.push(rest);
}

/** Reads the number at `at.offset` and moves past it; `what` names the layout in the error of a cut number. */
export function readVarint(bytes: Uint8Array, at: { offset: number }, what: string): number {
  const value = readVarintWithin(bytes, at, MAX_VARINT_BYTES);
  if (value === undefined) throw new RangeError(`${what} ends inside a number at byte ${at.offset - 1}`);
  return value;
}

/**
 * Reads the number at `at.offset` and moves past what it read: undefined when the bytes end inside it or it runs
 * longer than `maxBytes`, for layouts that word their own errors. The value may exceed 2^53 - 1 (8 bytes hold 56 bits).
 */
export function readVarintWithin(bytes: Uint8Array, at: { offset: number }, maxBytes: number): number | undefined {
  let value = 0;
  let scale = 1;
  for (let read = 0; read < maxBytes; read++) {
    const byte = bytes[at.offset++];
    if (byte === undefined) return undefined;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 0x80;
  }
  return undefined;
}
