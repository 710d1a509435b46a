/**
 * Compacts the visitor sketches and dimension counters of counter documents whose period is over: `v` (one int32
 * field per register, up to 8,192) becomes `vz`, one binary value (VisitorSketch.toPacked), each per-value sketch
 * `dv.<dim>.<key>` becomes `dvz.<dim>.<key>`, and each dimension's counters `d.<dim>` (up to DIMENSION_MAX_VALUES
 * fields) become `dz.<dim>` (packCounters). Writes keep `$bit`-ing `v` and `$inc`-ing `d` (atomic, mergeable); only
 * reads pay for a field per register or counter, and on every engine they pay per field: the driver builds a
 * JavaScript value per field, and FerretDB 1.x decodes each stored field of a document it returns. A 90-day, 20-series dashboard with visitors
 * read 1,800 documents of up to 2,048 registers each, and a 30-day breakdown of SOURCE 30 documents of 1,000
 * counters each (benchmarks section 9).
 *
 * The rewrite is guarded by the document's hit counters: every write that ORs a register also increments them
 * (a hit counts where its visitor is sketched), and counters only grow, so `daily` unchanged since the read
 * means `v`, `dv` and `d` are unchanged too; an event ORs its visitor into the site's `v` without a hit, so it
 * increments EVENT_SKETCH_WRITES instead, and the guard holds that too. A write that lands in between makes the guard miss; the document stays
 * as it was (both forms are read as one) and the next run, nominated again by that write, compacts it. A late
 * hit after compaction writes `v` beside `vz` and `d` beside `dz`: reads OR the sketches and add the counters, and a
 * later run folds them in.
 *
 * Documents are read and rewritten in paced steps (rewriteInSteps).
 */
import { Binary } from 'mongodb';
import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';
import { addPackedCounters, packCounters } from '../domain/dimensions/packedCounters';
import { isSiteTotal } from '../domain/siteTotal';
import { VISITOR_PRECISION } from '../domain/visitors/VisitorPrecision';
import { VisitorSketch } from '../domain/visitors/VisitorSketch';
import type { Targeting } from './counterUpsert';
import type { PackedCounters, PackedSketch, StoredSketch } from './statsExtras';
import { rewriteInSteps } from './rewriteInSteps';
import type { SweepContext } from './ttlOrSweep';

export type CompactedLevel = 'daily' | 'monthly';

/** Site documents: events whose visitor was ORed into `v` (an event is no hit, so `daily` does not move). */
export const EVENT_SKETCH_WRITES = 've';

/** What a compaction reads of a document. */
export interface CompactableDocument {
  readonly _id: string;
  readonly metadata?: { readonly site?: string; readonly page?: string };
  /** The day's total (daily documents) or the hits per day of the month (monthly documents): the guard. */
  readonly daily?: number | Readonly<Record<string, number>>;
  /** Site documents: EVENT_SKETCH_WRITES, part of the guard. */
  readonly ve?: number;
  readonly v?: StoredSketch;
  readonly vz?: PackedSketch;
  readonly dv?: Readonly<Record<string, Readonly<Record<string, StoredSketch>>>>;
  readonly dvz?: Readonly<Record<string, Readonly<Record<string, PackedSketch>>>>;
  readonly d?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly dz?: Readonly<Record<string, PackedCounters>>;
}

/** The precision each document's sketch is written at (VISITOR_PRECISION), by level and owner. */
const PRECISION = {
  daily: { site: VISITOR_PRECISION.siteDay, page: VISITOR_PRECISION.pageDay },
  monthly: { site: VISITOR_PRECISION.siteMonth, page: VISITOR_PRECISION.pageMonth },
} as const;

export const COMPACTION_PROJECTION = {
  _id: 1,
  metadata: 1,
  daily: 1,
  [EVENT_SKETCH_WRITES]: 1,
  v: 1,
  vz: 1,
  dv: 1,
  dvz: 1,
  d: 1,
  dz: 1,
} as const;

/** The guarded rewrite that compacts `doc`, or undefined when it holds no register field or counter to fold. */
export function periodCompaction(
  doc: CompactableDocument,
  level: CompactedLevel,
  targeting: Targeting,
): AnyBulkWriteOperation<Document> | undefined {
  if (doc.v === undefined && doc.dv === undefined && doc.d === undefined) return undefined;
  const site = doc.metadata?.page !== undefined && isSiteTotal(doc.metadata.page);
  const precision = PRECISION[level][site ? 'site' : 'page'];
  const set: Document = {};
  if (doc.v !== undefined) set.vz = packed(doc.v, doc.vz, precision);
  if (doc.dv !== undefined) {
    const dimensions = new Set([...Object.keys(doc.dvz ?? {}), ...Object.keys(doc.dv)]);
    const dvz: Record<string, Record<string, Binary>> = {};
    for (const dimension of dimensions) {
      const fields = doc.dv[dimension] ?? {};
      const bytes = doc.dvz?.[dimension] ?? {};
      const values: Record<string, Binary> = {};
      for (const key of new Set([...Object.keys(bytes), ...Object.keys(fields)])) {
        values[key] = packed(fields[key], bytes[key], VISITOR_PRECISION.minute);
      }
      dvz[dimension] = values;
    }
    set.dvz = dvz;
  }
  if (doc.d !== undefined) {
    const dz: Record<string, Binary> = {};
    for (const dimension of new Set([...Object.keys(doc.dz ?? {}), ...Object.keys(doc.d)])) {
      dz[dimension] = packedCounters(doc.d[dimension], doc.dz?.[dimension]);
    }
    set.dz = dz;
  }
  const filter = compactionFilter(doc, { ...guard(doc.daily), ...eventGuard(doc.ve) }, targeting);
  return { updateOne: { filter, update: { $set: set, $unset: { v: '', dv: '', d: '' } } } };
}

/** The document's id and `guard`, with its shard key where the policy targets shard keys. */
export function compactionFilter(
  doc: Pick<CompactableDocument, '_id' | 'metadata'>,
  guard: Document,
  targeting: Targeting,
): Document {
  const filter: Document = { _id: doc._id, ...guard };
  if (targeting === 'shardKey' && doc.metadata?.site !== undefined && doc.metadata.page !== undefined) {
    filter['metadata.site'] = doc.metadata.site;
    filter['metadata.page'] = doc.metadata.page;
  }
  return filter;
}

/**
 * Compacts the documents `ids` of one collection; resolves with how many were rewritten. Ids whose documents hold
 * nothing to fold, are gone, or changed since the read are left as they are.
 */
export async function compactPastPeriods(
  finder: Collection<Document>,
  writer: Collection<Document>,
  level: CompactedLevel,
  ids: readonly string[],
  options: { readonly targeting: Targeting; readonly context?: SweepContext | undefined },
): Promise<number> {
  return rewriteInSteps<CompactableDocument>(
    finder,
    writer,
    ids,
    {
      projection: COMPACTION_PROJECTION,
      rewrite: (doc) => periodCompaction(doc, level, options.targeting),
      describe: (documents) => `compacting the sketches of ${documents} ${level} documents`,
    },
    options.context,
  );
}

function packed(fields: StoredSketch | undefined, bytes: PackedSketch | undefined, precision: number): Binary {
  const sketch = bytes === undefined ? VisitorSketch.empty(precision) : VisitorSketch.fromPacked(bytes, precision);
  if (fields !== undefined) sketch.merge(VisitorSketch.fromStoredFields(fields, precision));
  return new Binary(sketch.toPacked());
}

function packedCounters(
  fields: Readonly<Record<string, unknown>> | undefined,
  bytes: PackedCounters | undefined,
): Binary {
  const counts = new Map<string, number>();
  if (bytes !== undefined) addPackedCounters(bytes, counts);
  for (const key in fields) counts.set(key, (counts.get(key) ?? 0) + Number(fields[key] ?? 0));
  return new Binary(packCounters(counts));
}

/**
 * Conditions that hold while the document's hit counters are as read: the total of a day, or every day of a month
 * (a day without hits yet must still have none).
 */
function eventGuard(writes: number | undefined): Document {
  return { [EVENT_SKETCH_WRITES]: writes === undefined ? { $exists: false } : writes };
}

function guard(daily: CompactableDocument['daily']): Document {
  if (daily === undefined) return { daily: { $exists: false } };
  if (typeof daily !== 'object') return { daily };
  const conditions: Document = {};
  for (let day = 1; day <= 31; day++) {
    const count = daily[String(day)];
    conditions[`daily.${day}`] = count === undefined ? { $exists: false } : count;
  }
  return conditions;
}
