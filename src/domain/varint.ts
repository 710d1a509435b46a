/**
 * Unsigned LEB128 numbers (7 bits a byte, low first) up to 2^53, for the binary layouts of page digests and coded
 * sketches: small numbers, most of them below 128, take one byte. Pure.
 */

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
  let value = 0;
  for (let scale = 1; scale <= Number.MAX_SAFE_INTEGER; scale *= 0x80) {
    const byte = bytes[at.offset++];
    if (byte === undefined) break;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
  }
  throw new RangeError(`${what} ends inside a number at byte ${at.offset - 1}`);
}
