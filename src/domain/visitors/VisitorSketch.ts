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

  estimate(): number {
    return estimateVisitors(this.words);
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  return value === null ? 'null' : typeof value;
}
