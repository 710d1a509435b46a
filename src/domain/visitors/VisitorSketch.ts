/**
 * A visitor sketch in memory: 2^precision register words, dense. add, merge and fold only OR words, so a sketch
 * built from stored documents equals the one built from the visitors themselves, in any order and with repeats.
 * Mutating methods change this sketch and return it; fold returns a new one.
 */
import { checkPrecision } from './checkPrecision';
import { estimateVisitors } from './estimateVisitors';
import type { Hash64 } from './Hash64';
import { parseRegisterKey, registerKey } from './registerKey';
import { registerValue } from './registerUpdate';
import type { RegisterUpdate } from './registerUpdate';

const MAX_WORD = 0x7fffffff;

export class VisitorSketch {
  private constructor(
    readonly precision: number,
    /** Register r's word; callers read, never write. */
    readonly words: Int32Array,
  ) {}

  static empty(precision: number): VisitorSketch {
    checkPrecision(precision);
    return new VisitorSketch(precision, new Int32Array(2 ** precision));
  }

  /**
   * The sketch a stored subdocument holds (`undefined` or `null` when the document has none). A register beyond
   * this precision folds into register r mod 2^precision, so a sketch stored at a higher precision reads as its fold.
   */
  static fromStoredFields(
    fields: Readonly<Record<string, unknown>> | null | undefined,
    precision: number,
  ): VisitorSketch {
    const sketch = VisitorSketch.empty(precision);
    if (fields === null || fields === undefined) return sketch;
    const mask = sketch.words.length - 1;
    for (const key in fields) {
      const register = parseRegisterKey(key);
      if (register === undefined) {
        throw new RangeError(
          `visitor sketch field must be a register number from 0 to 65535, got ${JSON.stringify(key)}`,
        );
      }
      const value = fields[key];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_WORD) {
        throw new RangeError(
          `visitor sketch register ${key} must be an integer from 0 to ${MAX_WORD}, got ${describeValue(value)}`,
        );
      }
      (sketch.words[register & mask] as number) |= value;
    }
    return sketch;
  }

  /**
   * The sketch a packed field holds (toPacked's bytes), read at `precision`: a sketch packed at a higher precision
   * reads as its fold; a lower one cannot be read finer and throws.
   */
  static fromPacked(bytes: Uint8Array, precision: number): VisitorSketch {
    const sketch = VisitorSketch.empty(precision);
    readPacked(bytes, precision, sketch.words);
    return sketch;
  }

  add(hash: Hash64): this {
    (this.words[hash.lo & (this.words.length - 1)] as number) |= registerValue(hash);
    return this;
  }

  apply(update: RegisterUpdate): this {
    (this.words[update.register & (this.words.length - 1)] as number) |= update.value;
    return this;
  }

  /** Adds every visitor of `other`, which must have at least this precision (a finer sketch folds in). */
  merge(other: VisitorSketch): this {
    if (other.precision < this.precision) {
      throw new RangeError(
        `cannot merge a visitor sketch of precision ${other.precision} into one of precision ${this.precision}`,
      );
    }
    const mask = this.words.length - 1;
    const source = other.words;
    for (let register = 0; register < source.length; register++) {
      (this.words[register & mask] as number) |= source[register] as number;
    }
    return this;
  }

  /**
   * Adds every visitor of a packed sketch (toPacked's bytes, at least this precision) in place: no sketch of its
   * own is built, so ORing thousands of sparse page sketches costs their registers, not 2^precision words each.
   */
  mergePacked(bytes: Uint8Array): this {
    readPacked(bytes, this.precision, this.words);
    return this;
  }

  /** The same visitors at a precision no higher than this one's. */
  fold(precision: number): VisitorSketch {
    if (precision > this.precision) {
      throw new RangeError(`cannot fold a visitor sketch of precision ${this.precision} to precision ${precision}`);
    }
    return VisitorSketch.empty(precision).merge(this);
  }

  /** The fields a document stores: one per non-empty register. */
  toStoredFields(): Record<string, number> {
    const fields: Record<string, number> = {};
    this.words.forEach((word, register) => {
      if (word !== 0) fields[registerKey(register)] = word;
    });
    return fields;
  }

  /**
   * One binary value for the whole sketch (what a closed period's document keeps, see store/compactPastPeriods):
   * byte 0 the layout, byte 1 the precision, then either every word (dense, 4 bytes each, little-endian) or, when
   * that is smaller, each non-empty register as a 2-byte number and its 4-byte word, in register order (sparse).
   */
  toPacked(): Uint8Array {
    let used = 0;
    for (const word of this.words) if (word !== 0) used++;
    const sparse = used * SPARSE_ENTRY < this.words.length * WORD;
    const bytes = new Uint8Array(HEADER + (sparse ? used * SPARSE_ENTRY : this.words.length * WORD));
    const view = new DataView(bytes.buffer);
    bytes[0] = sparse ? SPARSE : DENSE;
    bytes[1] = this.precision;
    let at = HEADER;
    this.words.forEach((word, register) => {
      if (!sparse) {
        view.setInt32(at, word, true);
        at += WORD;
      } else if (word !== 0) {
        view.setUint16(at, register, true);
        view.setInt32(at + 2, word, true);
        at += SPARSE_ENTRY;
      }
    });
    return bytes;
  }

  estimate(): number {
    return estimateVisitors(this.words);
  }
}

const HEADER = 2;
const WORD = 4;
const SPARSE_ENTRY = 6;
const DENSE = 1;
const SPARSE = 2;

/** ORs the words packed in `bytes` into `into` (2^precision words), folding a finer sketch. */
function readPacked(bytes: Uint8Array, precision: number, into: Int32Array): void {
  const stored = bytes.length >= HEADER ? (bytes[1] as number) : -1;
  const layout = bytes[0];
  if (bytes.length < HEADER || (layout !== DENSE && layout !== SPARSE)) {
    throw new RangeError(`packed visitor sketch must start with layout 1 or 2, got ${bytes.length} byte(s)`);
  }
  checkPrecision(stored);
  if (stored < precision) {
    throw new RangeError(`cannot read a visitor sketch packed at precision ${stored} at precision ${precision}`);
  }
  const registers = 2 ** stored;
  const body = bytes.length - HEADER;
  const expected = layout === DENSE ? registers * WORD : body - (body % SPARSE_ENTRY);
  if (body !== expected) {
    throw new RangeError(
      `packed visitor sketch of precision ${stored} has ${body} bytes after its header, ` +
        `expected ${layout === DENSE ? registers * WORD : 'a multiple of 6'}`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const mask = into.length - 1;
  let previous = -1;
  for (let at = HEADER; at < bytes.length; at += layout === DENSE ? WORD : SPARSE_ENTRY) {
    const register = layout === DENSE ? (at - HEADER) / WORD : view.getUint16(at, true);
    const word = view.getInt32(layout === DENSE ? at : at + 2, true);
    if (register >= registers || (layout === SPARSE && register <= previous)) {
      throw new RangeError(`packed visitor sketch of precision ${stored} lists register ${register} out of order`);
    }
    if (word < 0) throw new RangeError(`packed visitor sketch register ${register} has a negative word ${word}`);
    previous = register;
    (into[register & mask] as number) |= word;
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  return value === null ? 'null' : typeof value;
}
