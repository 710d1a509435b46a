/**
 * A visitor sketch in about half the bytes of VisitorSketch.toPacked's sparse layout, for page digests (issue 28),
 * where FerretDB's read time follows the bytes: most registers of a page's sketch hold one visitor, whose word is one
 * ladder bit and one fingerprint pattern (20 × 55 = 1,100 words), coded in 2 bytes instead of 4, and registers are
 * coded as the gap from the previous one (1 byte while a sketch has more than 1 register in 128 set) instead of 2.
 * Layout: byte 0 is CODED, byte 1 the precision, then the number of set registers and per set register in ascending
 * order the varint gap and the varint code: a one-visitor word's index below ONE_VISITOR_WORDS, any other word plus
 * ONE_VISITOR_WORDS. A sketch whose registers mostly hold several visitors codes larger than its dense packed form
 * (VisitorSketch.toPacked, layouts 1 and 2), which is then written instead. Pure.
 */
import { checkPrecision } from './checkPrecision';
import { FINGERPRINT_PATTERNS, LADDER_BITS, LADDER_MASK } from './registerLayout';
import type { VisitorSketch } from './VisitorSketch';
import { readVarint, writeVarint } from '../varint';

const WHAT = 'coded visitor sketch';

/** The layout byte; 1 and 2 are toPacked's. */
const CODED = 3;
const PATTERNS = FINGERPRINT_PATTERNS.length;
const ONE_VISITOR_WORDS = LADDER_BITS * PATTERNS;
const PATTERN_INDEX = new Map(FINGERPRINT_PATTERNS.map((pattern, i) => [pattern, i]));
const ONE_VISITOR_WORD = Int32Array.from({ length: ONE_VISITOR_WORDS }, (_, code) => wordOf(code));

export function encodeCompactSketch(sketch: VisitorSketch): Uint8Array {
  const bytes: number[] = [CODED, sketch.precision];
  let used = 0;
  for (const word of sketch.words) if (word !== 0) used++;
  writeVarint(bytes, used);
  let previous = -1;
  sketch.words.forEach((word, register) => {
    if (word === 0) return;
    writeVarint(bytes, register - previous - 1);
    previous = register;
    writeVarint(bytes, codeOf(word));
  });
  const packed = sketch.toPacked();
  return packed.length < bytes.length ? packed : Uint8Array.from(bytes);
}

/**
 * ORs the sketch `bytes` hold into `into`, folding a finer one; a coarser one cannot be read finer and throws. Several
 * sketches of one precision (the goals a page matches) take the bytes in one read: this decoding is most of a
 * conversions query's CPU, so one-visitor words come from a table and registers are ORed in place.
 */
export function mergeCompactSketch(into: VisitorSketch | readonly VisitorSketch[], bytes: Uint8Array): void {
  const targets: readonly VisitorSketch[] = Array.isArray(into) ? into : [into as VisitorSketch];
  const first = targets[0];
  if (first === undefined) return;
  if (targets.some((target) => target.precision !== first.precision)) {
    throw new RangeError('sketches merged from one coded sketch must share a precision');
  }
  if (bytes[0] !== CODED) {
    for (const target of targets) target.mergePacked(bytes);
    return;
  }
  const stored = bytes[1] ?? -1;
  checkPrecision(stored);
  if (stored < first.precision) {
    throw new RangeError(`cannot read a visitor sketch coded at precision ${stored} at precision ${first.precision}`);
  }
  const registers = 2 ** stored;
  const mask = first.words.length - 1;
  const words = targets.map((target) => target.words);
  const at = { offset: 2 };
  const used = readVarint(bytes, at, WHAT);
  let register = -1;
  for (let i = 0; i < used; i++) {
    register += readVarint(bytes, at, WHAT) + 1;
    const code = readVarint(bytes, at, WHAT);
    const value = code < ONE_VISITOR_WORDS ? (ONE_VISITOR_WORD[code] as number) : code - ONE_VISITOR_WORDS;
    if (register >= registers || value > 0x7fffffff) {
      throw new RangeError(`coded visitor sketch of precision ${stored} has a bad register at byte ${at.offset}`);
    }
    for (const target of words) (target[register & mask] as number) |= value;
  }
  if (at.offset !== bytes.length) {
    throw new RangeError(`coded visitor sketch holds ${bytes.length - at.offset} byte(s) after its registers`);
  }
}

function codeOf(word: number): number {
  const ladder = word & LADDER_MASK;
  const pattern = PATTERN_INDEX.get(word - ladder);
  // One ladder bit (a power of two) and one pattern: one visitor's word.
  if (pattern !== undefined && ladder !== 0 && (ladder & (ladder - 1)) === 0) {
    return (31 - Math.clz32(ladder)) * PATTERNS + pattern;
  }
  return word + ONE_VISITOR_WORDS;
}

function wordOf(code: number): number {
  return (1 << Math.floor(code / PATTERNS)) | (FINGERPRINT_PATTERNS[code % PATTERNS] as number);
}
