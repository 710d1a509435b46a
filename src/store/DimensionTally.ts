/**
 * One dimension value's pending counts in one counter document: its hits (`$inc d.<dimension>.<key>`) and, where
 * the dimension keeps visitors, its sketch words (`$bit dv.<dimension>.<key>.<r>`). A hit adds to the tally its
 * document already holds for the value, found by the value's slot, so a hit costs one lookup per document and
 * dimension; paths are put together once per flush.
 */
import type { Document } from 'mongodb';
import { registerName } from './visitorSketchPaths';

/** One value of one dimension, as documents store it (DimensionCounting keeps one per value and process). */
export interface DimensionSlot {
  /** Index in DIMENSIONS. */
  readonly dimension: number;
  /** `d.<dimension>.<key>`: its counter. */
  readonly path: string;
  /** `dv.<dimension>.<key>.`: its visitor sketch's registers follow. */
  readonly visitorPrefix: string;
  readonly other: boolean;
}

export class DimensionTally {
  hits = 0;
  /** Visit counter changes (issue 29) by field (`dx.<dimension>.<key>.<field>`); created by the first. */
  visits: Map<string, number> | undefined;
  /** Sketch words by register; created by the first visitor. */
  words: Map<number, number> | undefined;

  constructor(readonly slot: DimensionSlot) {}

  or(register: number, word: number): void {
    const words = (this.words ??= new Map());
    words.set(register, (words.get(register) ?? 0) | word);
  }

  visit(field: string, amount: number): void {
    const visits = (this.visits ??= new Map());
    visits.set(field, (visits.get(field) ?? 0) + amount);
  }

  /** Adds everything `other` (a tally of the same value) holds. */
  absorb(other: DimensionTally): void {
    this.hits += other.hits;
    if (other.words) for (const [register, word] of other.words) this.or(register, word);
    if (other.visits) for (const [field, amount] of other.visits) this.visit(field, amount);
  }

  /** Writes the tally into an upsert's `$inc` and `$bit` operands (adding to what a tally of the same path wrote). */
  writeInto(inc: Record<string, number>, bit: Document): void {
    const { path, visitorPrefix } = this.slot;
    if (this.hits !== 0) inc[path] = (inc[path] ?? 0) + this.hits;
    if (this.visits !== undefined) {
      // `d.<dimension>.<key>` → `dx.<dimension>.<key>.<field>`.
      const prefix = `dx${path.slice(1)}.`;
      for (const [field, amount] of this.visits)
        if (amount !== 0) inc[prefix + field] = (inc[prefix + field] ?? 0) + amount;
    }
    if (this.words === undefined) return;
    for (const [register, word] of this.words) {
      const field = visitorPrefix + registerName(register);
      bit[field] = { or: ((bit[field] as { or: number } | undefined)?.or ?? 0) | word };
    }
  }
}
