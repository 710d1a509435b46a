/**
 * How counter documents count dimensions (issue 20), one per process: each value's field paths (`d.<dimension>.<key>`,
 * and the `dv.<dimension>.<key>.` prefix of its visitor sketch), built once per value and reused by every hit, and
 * which keys each document admits.
 *
 * Cap: a document admits at most `maxValues` distinct keys per dimension from this process; a further new value is
 * counted under `(other)`, so the document stays bounded and a breakdown still adds up to its hits. Admission is
 * decided here, in memory, never by reading the document. The memory it takes is bounded too: at most
 * `maxTrackedKeys` admitted keys over all documents (about 100 bytes each), the least recently written documents
 * forgotten first. The bound is therefore per process that wrote the document, and per stretch of time the
 * document stayed among those tracked: a document forgotten and written again may admit up to `maxValues` more.
 * Dimensions whose values cannot outnumber `maxValues` (device: 6; country: 677 with explicit ISO codes) are not
 * tracked at all.
 */
import { DIMENSIONS } from '../domain/dimensions/Dimension';
import type { Dimension, DimensionValues } from '../domain/dimensions/Dimension';
import { dimensionKey } from '../domain/dimensions/dimensionKey';
import { OTHER } from '../domain/dimensions/dimensionMarkers';
import { dimensionValueSpace } from './dimensionValueSpace';
import type { DimensionSlot, DimensionTally } from './DimensionTally';
import type { PendingDocument } from './PendingUpdates';

export type { DimensionSlot };

/** The keys one document admitted, per dimension. */
export class AdmittedKeys {
  /** Admitted counter paths (a path names its dimension). */
  readonly keys = new Set<string>();
  readonly counts = new Array<number>(DIMENSIONS.length).fill(0);
  /** False once forgotten: a batch still writing the document keeps deciding with it, uncounted in the bound. */
  tracked = true;
}

export interface DimensionCountingOptions {
  /** DIMENSION_MAX_VALUES: distinct keys per dimension a document admits (from this process). */
  readonly maxValues: number;
  /** DIMENSION_VISITORS: dimensions whose values keep a visitor sketch in site-total documents. */
  readonly visitorDimensions: readonly Dimension[];
  /** Admitted keys remembered over all documents. */
  readonly maxTrackedKeys?: number | undefined;
  /** Values whose paths are cached, per dimension (a full cache starts afresh). */
  readonly maxCachedValues?: number | undefined;
}

export const DEFAULT_MAX_TRACKED_KEYS = 500_000;
const DEFAULT_MAX_CACHED_VALUES = 10_000;

export class DimensionCounting {
  readonly maxValues: number;
  /** Per dimension: whether its values keep visitor sketches (site documents only). */
  private readonly withVisitors: readonly boolean[];
  /** Per dimension: whether admission must be tracked (its values may outnumber maxValues). */
  private readonly tracked: readonly boolean[];
  private readonly slots: Array<Map<string, DimensionSlot>>;
  private readonly others: readonly DimensionSlot[];
  private readonly maxTrackedKeys: number;
  private readonly maxCachedValues: number;
  /** Admission per document id, least recently written first. */
  private readonly documents = new Map<string, AdmittedKeys>();
  private trackedKeys = 0;

  constructor(options: DimensionCountingOptions) {
    this.maxValues = options.maxValues;
    this.maxTrackedKeys = options.maxTrackedKeys ?? DEFAULT_MAX_TRACKED_KEYS;
    this.maxCachedValues = options.maxCachedValues ?? DEFAULT_MAX_CACHED_VALUES;
    this.withVisitors = DIMENSIONS.map((dimension) => options.visitorDimensions.includes(dimension));
    this.tracked = DIMENSIONS.map((dimension) => dimensionValueSpace(dimension) > options.maxValues);
    this.slots = DIMENSIONS.map(() => new Map());
    this.others = DIMENSIONS.map((_, index) => newSlot(index, OTHER));
  }

  /** The slots of a hit's values, written into `into` (reused hit after hit: nothing is allocated per hit). */
  slotsOf(values: DimensionValues, into: DimensionSlot[]): DimensionSlot[] {
    for (let index = 0; index < DIMENSIONS.length; index++) {
      const value = values[DIMENSIONS[index] as Dimension];
      const cache = this.slots[index] as Map<string, DimensionSlot>;
      let slot = cache.get(value);
      if (slot === undefined) {
        if (cache.size >= this.maxCachedValues) cache.clear();
        slot = value === OTHER ? (this.others[index] as DimensionSlot) : newSlot(index, value);
        cache.set(value, slot);
      }
      into[index] = slot;
    }
    return into;
  }

  /**
   * Counts `count` hits under each slot's key in `document`, or under `(other)` where the document admits no new
   * key. With a visitor (`word` ≠ 0: its register value, `register` its sketch register at minute precision),
   * also ORs it into the sketches of the dimensions that keep them: pass it for site-total documents only.
   */
  count(
    document: PendingDocument,
    slots: readonly DimensionSlot[],
    count: number,
    word: number,
    register: number,
  ): void {
    const { recentSlots, recentTallies } = document;
    for (let index = 0; index < DIMENSIONS.length; index++) {
      const slot = slots[index] as DimensionSlot;
      let tally: DimensionTally;
      if (recentSlots[index] === slot) tally = recentTallies[index] as DimensionTally;
      else {
        tally = document.tallyOf.get(slot) ?? document.tally(slot, this.admit(document, slot));
        recentSlots[index] = slot;
        recentTallies[index] = tally;
      }
      tally.hits += count;
      if (word !== 0 && this.withVisitors[index]) tally.or(register, word);
    }
  }

  /**
   * Adds a visit counter change (issue 29) under each slot's key in a site document, admitted as hits are (a visit's
   * values are its first hit's, counted there already, so they are mostly admitted).
   */
  countVisit(document: PendingDocument, slots: readonly DimensionSlot[], field: string, amount: number): void {
    for (let index = 0; index < DIMENSIONS.length; index++) {
      const slot = slots[index] as DimensionSlot;
      const tally = document.tallyOf.get(slot) ?? document.tally(slot, this.admit(document, slot));
      tally.visit(field, amount);
    }
  }

  /** The slot a value counts under in `document`: its own if the document admits it, else `(other)`. */
  private admit(document: PendingDocument, slot: DimensionSlot): DimensionSlot {
    const index = slot.dimension;
    if (!this.tracked[index] || slot.other) return slot;
    const admitted = (document.admitted ??= this.admittedKeysOf(document.key.id));
    if (admitted.keys.has(slot.path)) return slot;
    if ((admitted.counts[index] as number) >= this.maxValues) return this.others[index] as DimensionSlot;
    admitted.keys.add(slot.path);
    (admitted.counts[index] as number) += 1;
    if (admitted.tracked && ++this.trackedKeys > this.maxTrackedKeys) this.forgetOldest();
    return slot;
  }

  /** Documents and keys tracked now (for tests and the memory bound). */
  get tracking(): { readonly documents: number; readonly keys: number } {
    return { documents: this.documents.size, keys: this.trackedKeys };
  }

  /** The document's admitted keys, now the most recently written (once per document per flush, not per hit). */
  private admittedKeysOf(id: string): AdmittedKeys {
    let admitted = this.documents.get(id);
    if (admitted === undefined) admitted = new AdmittedKeys();
    else this.documents.delete(id);
    this.documents.set(id, admitted);
    return admitted;
  }

  private forgetOldest(): void {
    for (const [id, admitted] of this.documents) {
      if (this.trackedKeys <= this.maxTrackedKeys) return;
      this.documents.delete(id);
      admitted.tracked = false;
      this.trackedKeys -= admitted.keys.size;
    }
  }
}

function newSlot(index: number, value: string): DimensionSlot {
  const key = dimensionKey(value);
  const dimension = DIMENSIONS[index] as Dimension;
  return {
    dimension: index,
    path: `d.${dimension}.${key}`,
    visitorPrefix: `dv.${dimension}.${key}.`,
    other: value === OTHER,
  };
}
