/**
 * Compacts the converting-visitor sketches of event documents (eventDocument) whose period is over: each
 * `ev.<event>` (one int32 field per register, up to 2,048) becomes `evz.<event>`, one binary value in the coded
 * layout of page digests (encodeCompactSketch: about 3 bytes a register where most hold one visitor, or the dense
 * packed form when that is smaller), because reads pay per field and then per byte (docs/benchmarks/events.md).
 * Writes keep `$bit`-ing `ev.<event>`; reads OR both forms (EventTotals), so a late event after compaction is read
 * right, and a later run folds it in.
 *
 * The rewrite of a name is guarded by its count `n.<event>`: every write that ORs a register of `ev.<event>` also
 * increments it (EventCounting), and counts only grow, so an unchanged count means an unchanged sketch. Only the
 * names read are set and unset, so a name first written meanwhile is left as written. A write in between makes the
 * guard miss and leaves the document as it was, for the next run. Running it again on a compacted document does
 * nothing (no `ev` left to fold).
 */
import { Binary } from 'mongodb';
import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';
import { encodeCompactSketch, mergeCompactSketch } from '../domain/visitors/compactSketch';
import { VisitorSketch } from '../domain/visitors/VisitorSketch';
import { compactionFilter } from './compactPastPeriods';
import type { Targeting } from './counterUpsert';
import { EVENT_VISITOR_PRECISION } from './eventDocument';
import { rewriteInSteps } from './rewriteInSteps';
import type { StepRewrite } from './rewriteInSteps';
import type { PackedSketch, StoredSketch } from './statsExtras';
import type { SweepContext } from './ttlOrSweep';

/** What the compaction reads of an event document. */
export interface CompactableEventDocument {
  readonly _id: string;
  readonly metadata?: { readonly site?: string; readonly page?: string };
  readonly n?: Readonly<Record<string, unknown>>;
  readonly ev?: Readonly<Record<string, StoredSketch>>;
  readonly evz?: Readonly<Record<string, PackedSketch>>;
}

const PROJECTION = { _id: 1, metadata: 1, n: 1, ev: 1, evz: 1 } as const;

/** The guarded rewrite that compacts `doc`'s sketches, or undefined when it holds no register field. */
export function eventSketchCompaction(
  doc: CompactableEventDocument,
  targeting: Targeting,
): AnyBulkWriteOperation<Document> | undefined {
  const names = Object.keys(doc.ev ?? {});
  if (names.length === 0) return undefined;
  const set: Document = {};
  const unset: Document = {};
  const guard: Document = {};
  for (const name of names) {
    set[`evz.${name}`] = new Binary(compactedSketch(doc.ev?.[name], doc.evz?.[name]));
    unset[`ev.${name}`] = '';
    const count = doc.n?.[name];
    guard[`n.${name}`] = count === undefined ? { $exists: false } : count;
  }
  return { updateOne: { filter: compactionFilter(doc, guard, targeting), update: { $set: set, $unset: unset } } };
}

/** The coded bytes of one name's sketch: its compacted bytes ORed with its register fields. */
export function compactedSketch(fields: StoredSketch | undefined, bytes: PackedSketch | undefined): Uint8Array {
  const sketch = VisitorSketch.empty(EVENT_VISITOR_PRECISION);
  if (bytes !== undefined) mergeCompactSketch(sketch, bytes);
  if (fields !== undefined) sketch.merge(VisitorSketch.fromStoredFields(fields, EVENT_VISITOR_PRECISION));
  return encodeCompactSketch(sketch);
}

/** How rewriteInSteps compacts event documents. */
export function eventSketchRewrite(targeting: Targeting): StepRewrite<CompactableEventDocument> {
  return {
    projection: PROJECTION,
    rewrite: (doc) => eventSketchCompaction(doc, targeting),
    describe: (documents) => `compacting the visitor sketches of ${documents} event documents`,
  };
}

/**
 * Compacts the event documents `ids` of one collection; resolves with how many were rewritten. Ids whose documents
 * hold no register field, are gone, or changed since the read are left as they are.
 */
export function compactEventSketches(
  finder: Collection<Document>,
  writer: Collection<Document>,
  ids: readonly string[],
  options: { readonly targeting: Targeting; readonly context?: SweepContext | undefined },
): Promise<number> {
  return rewriteInSteps(finder, writer, ids, eventSketchRewrite(options.targeting), options.context);
}
