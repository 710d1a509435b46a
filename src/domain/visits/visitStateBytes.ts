/**
 * A VisitState as bytes (issue 27, disk): the session documents are a third of the embedded database after a day of
 * traffic, and their state's BSON spent most of its bytes on field names. Layout, version 1:
 *   version (1) · start · last − start (zigzag) · views · flags (1 bounced, 2 exit is the entry, 4 dimensions)
 *   · entry · [exit] · seen count · seen hashes (4 bytes each, little-endian) · [dimension count · values]
 * Numbers are varints (src/domain/varint.ts), strings a varint byte length then UTF-8. Dimension values go in
 * DIMENSIONS order, with their count: a list that grows must keep its order, and a state from a list of another
 * length is refused rather than read into the wrong fields. Pure.
 */
import { DIMENSIONS } from '../dimensions/Dimension';
import type { Dimension, DimensionValues } from '../dimensions/Dimension';
import { readVarint, writeVarint } from '../varint';
import type { VisitState } from './VisitState';

const VERSION = 1;
const BOUNCED = 1;
const EXIT_IS_ENTRY = 2;
const HAS_DIMENSIONS = 4;
const WHAT = 'a stored visit state';

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder('utf-8', { fatal: true });

export function encodeVisitState(state: VisitState): Uint8Array {
  const bytes: number[] = [VERSION];
  writeVarint(bytes, state.start);
  const moved = state.last - state.start;
  // Zigzag: a visit's latest hit is not before its first, but a state must survive whatever it is given.
  writeVarint(bytes, moved >= 0 ? moved * 2 : -moved * 2 - 1);
  writeVarint(bytes, state.views);
  const exitIsEntry = state.exit === state.entry;
  bytes.push(
    (state.bounced ? BOUNCED : 0) | (exitIsEntry ? EXIT_IS_ENTRY : 0) | (state.dimensions ? HAS_DIMENSIONS : 0),
  );
  writeString(bytes, state.entry);
  if (!exitIsEntry) writeString(bytes, state.exit);
  writeVarint(bytes, state.seen.length);
  for (const hash of state.seen) bytes.push(hash & 0xff, (hash >>> 8) & 0xff, (hash >>> 16) & 0xff, hash >>> 24);
  if (state.dimensions) {
    writeVarint(bytes, DIMENSIONS.length);
    for (const dimension of DIMENSIONS) writeString(bytes, state.dimensions[dimension]);
  }
  return Uint8Array.from(bytes);
}

export function decodeVisitState(bytes: Uint8Array): VisitState {
  if (bytes[0] !== VERSION) throw new RangeError(`${WHAT} has layout version ${bytes[0]}, not ${VERSION}`);
  const at = { offset: 1 };
  const start = readVarint(bytes, at, WHAT);
  const zigzag = readVarint(bytes, at, WHAT);
  const last = start + (zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2);
  const views = readVarint(bytes, at, WHAT);
  const flags = bytes[at.offset++];
  if (flags === undefined) throw new RangeError(`${WHAT} ends before its flags`);
  const entry = readString(bytes, at);
  const exit = flags & EXIT_IS_ENTRY ? entry : readString(bytes, at);
  const count = readVarint(bytes, at, WHAT);
  if (at.offset + count * 4 > bytes.length) throw new RangeError(`${WHAT} ends inside its pages seen`);
  // Exactly `count` long: a decoded state may stay cached for the rest of its visit (advanceVisit's `appended`).
  const seen = new Array<number>(count);
  for (let i = 0; i < count; i++, at.offset += 4) {
    const o = at.offset;
    seen[i] =
      ((bytes[o] as number) | ((bytes[o + 1] as number) << 8) | ((bytes[o + 2] as number) << 16)) +
      (bytes[o + 3] as number) * 0x1000000;
  }
  let dimensions: DimensionValues | undefined;
  if (flags & HAS_DIMENSIONS) {
    const stored = readVarint(bytes, at, WHAT);
    if (stored !== DIMENSIONS.length) {
      throw new RangeError(`${WHAT} holds ${stored} dimension values, this version counts ${DIMENSIONS.length}`);
    }
    const values = {} as Record<Dimension, string>;
    for (const dimension of DIMENSIONS) values[dimension] = readString(bytes, at);
    dimensions = values;
  }
  if (at.offset !== bytes.length) throw new RangeError(`${WHAT} has ${bytes.length - at.offset} bytes past its end`);
  return { start, last, entry, exit, views, bounced: (flags & BOUNCED) !== 0, dimensions, seen };
}

function writeString(into: number[], value: string): void {
  // Pages and dimension values are almost always ASCII, whose UTF-8 is their code units: pushed as they are, without
  // an encoder call and its array per string (most of a state's encoding time in a window's visits).
  let ascii = true;
  for (let i = 0; i < value.length; i++) {
    if (value.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    writeVarint(into, value.length);
    for (let i = 0; i < value.length; i++) into.push(value.charCodeAt(i));
    return;
  }
  const encoded = utf8.encode(value);
  writeVarint(into, encoded.length);
  for (const byte of encoded) into.push(byte);
}

function readString(bytes: Uint8Array, at: { offset: number }): string {
  const length = readVarint(bytes, at, WHAT);
  if (at.offset + length > bytes.length) throw new RangeError(`${WHAT} ends inside a string at byte ${at.offset}`);
  const value = fromUtf8.decode(bytes.subarray(at.offset, at.offset + length));
  at.offset += length;
  return value;
}
