/**
 * The upsert that adds one archived document to the target's document of the same `_id` (a merging restore,
 * collections whose rule is `add`), in one atomic update, so it is exact however the target is written meanwhile:
 * - counters (every numeric field, `d.<dim>.<key>` included): `$inc`;
 * - sketch words (`v.<r>`, `dv.<dim>.<key>.<r>`, events' `ev.<event>.<r>`): `$bit … or`, as ingest writes them (VisitorSketch.merge is the
 *   same OR);
 * - packed forms, which no update operator can combine (compactPastPeriods, compactEventSketches): a packed sketch
 *   `vz` / `dvz.<dim>.<key>` / `evz.<event>` is unpacked and ORed into `v` / `dv.<dim>.<key>` / `ev.<event>`,
 *   packed counters `dz.<dim>` are unpacked and added to `d.<dim>`. Reads already combine both forms (a late hit
 *   writes them beside the packed ones), and the next compaction of the document folds them in again;
 * - exactly-once markers `_a.<lane>`: `$max` (lanes are random per process, so two sources never share one);
 * - anything else (`metadata`, impression ids): set on insert only.
 * Where the policy targets shard keys, the filter carries `metadata.site` and `metadata.page` (counter documents)
 * or `u` and `i` (impression pairs) as ingest's own upserts do, so a sharded cluster routes the write to one shard.
 */
import type { AnyBulkWriteOperation, Document } from 'mongodb';
import { addPackedCounters } from '../../domain/dimensions/packedCounters';
import { mergeCompactSketch } from '../../domain/visitors/compactSketch';
import { VisitorSketch } from '../../domain/visitors/VisitorSketch';
import type { Targeting } from '../counterUpsert';
import { MARKER_FIELD } from '../FlushMark';

/** Top-level string fields a shard-key write filter names, where a document has them. */
const SHARD_KEY_FIELDS: ReadonlyArray<readonly [string, (doc: Document) => unknown]> = [
  ['metadata.site', (doc) => (doc.metadata as Document | undefined)?.site],
  ['metadata.page', (doc) => (doc.metadata as Document | undefined)?.page],
  ['u', (doc) => doc.u],
  ['i', (doc) => doc.i],
];

interface Changes {
  readonly inc: Map<string, number>;
  readonly bits: Map<string, number>;
  readonly max: Map<string, unknown>;
  readonly onInsert: Map<string, unknown>;
}

/** Undefined for a document of nothing but its keys (tally writes none): there is nothing to add. */
export function mergeOperation(document: Document, targeting: Targeting): AnyBulkWriteOperation<Document> | undefined {
  const filter: Document = { _id: document._id };
  if (targeting === 'shardKey') {
    for (const [path, read] of SHARD_KEY_FIELDS) {
      const value = read(document);
      if (typeof value === 'string') filter[path] = value;
    }
  }
  const changes: Changes = { inc: new Map(), bits: new Map(), max: new Map(), onInsert: new Map() };
  for (const [field, value] of Object.entries(document)) {
    if (field === '_id') continue;
    if (field === MARKER_FIELD) for (const [lane, seq] of entries(value)) changes.max.set(`${field}.${lane}`, seq);
    else if (field === 'v') orSketchFields(changes, 'v', value);
    else if (field === 'vz') orPackedSketch(changes, 'v', value);
    else if (field === 'dv') forEachValueOf(value, (path, sketch) => orSketchFields(changes, `dv.${path}`, sketch));
    else if (field === 'dvz') forEachValueOf(value, (path, bytes) => orPackedSketch(changes, `dv.${path}`, bytes));
    else if (field === 'ev') for (const [name, sketch] of entries(value)) orSketchFields(changes, `ev.${name}`, sketch);
    else if (field === 'evz') for (const [name, bytes] of entries(value)) orPackedSketch(changes, `ev.${name}`, bytes);
    else if (field === 'dz') for (const [dimension, bytes] of entries(value)) addPacked(changes, dimension, bytes);
    else addLeaves(changes, field, value);
  }
  for (const path of Object.keys(filter)) changes.onInsert.delete(path);
  const update: Document = {};
  if (changes.onInsert.size > 0) update.$setOnInsert = Object.fromEntries(changes.onInsert);
  if (changes.inc.size > 0) update.$inc = Object.fromEntries(changes.inc);
  if (changes.bits.size > 0) {
    update.$bit = Object.fromEntries([...changes.bits].map(([path, word]) => [path, { or: word }]));
  }
  if (changes.max.size > 0) update.$max = Object.fromEntries(changes.max);
  if (Object.keys(update).length === 0) return undefined;
  return { updateOne: { filter, update, upsert: true } };
}

/** Numbers are counters and added; subdocuments are walked; anything else is the document's identity. */
function addLeaves(changes: Changes, path: string, value: unknown): void {
  const number = numberOf(value);
  if (number !== undefined) changes.inc.set(path, (changes.inc.get(path) ?? 0) + number);
  else if (isPlainDocument(value))
    for (const [key, inner] of Object.entries(value)) addLeaves(changes, `${path}.${key}`, inner);
  else changes.onInsert.set(path, value);
}

function orSketchFields(changes: Changes, path: string, fields: unknown): void {
  for (const [register, word] of entries(fields)) orWord(changes, `${path}.${register}`, numberOf(word) ?? 0);
}

function orPackedSketch(changes: Changes, path: string, bytes: unknown): void {
  const packed = bytesOf(bytes);
  // Byte 1 is the precision it was packed or coded at (VisitorSketch.toPacked, encodeCompactSketch): read at that
  // precision, the words are exactly the registers the fields held before compaction.
  const sketch = VisitorSketch.empty(packed[1] ?? 0);
  mergeCompactSketch(sketch, packed);
  const fields = sketch.toStoredFields();
  for (const [register, word] of Object.entries(fields)) orWord(changes, `${path}.${register}`, word);
}

function orWord(changes: Changes, path: string, word: number): void {
  if (word !== 0) changes.bits.set(path, (changes.bits.get(path) ?? 0) | word);
}

function addPacked(changes: Changes, dimension: string, bytes: unknown): void {
  const counts = new Map<string, number>();
  addPackedCounters(bytesOf(bytes), counts);
  for (const [key, count] of counts) {
    const path = `d.${dimension}.${key}`;
    changes.inc.set(path, (changes.inc.get(path) ?? 0) + count);
  }
}

/** `dv` / `dvz`: `<dimension>.<key>` → value. */
function forEachValueOf(value: unknown, each: (path: string, inner: unknown) => void): void {
  for (const [dimension, keys] of entries(value))
    for (const [key, inner] of entries(keys)) each(`${dimension}.${key}`, inner);
}

function entries(value: unknown): Array<[string, unknown]> {
  return isPlainDocument(value) ? Object.entries(value) : [];
}

/** A counter as the archive hands it over (Int32, Double, Long) or as a plain number. */
function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (value === null || typeof value !== 'object') return undefined;
  const type = (value as { _bsontype?: unknown })._bsontype;
  if (type === 'Int32' || type === 'Double') return (value as { value: number }).value;
  if (type === 'Long') return (value as { toNumber(): number }).toNumber();
  return undefined;
}

function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (value !== null && typeof value === 'object' && (value as { _bsontype?: unknown })._bsontype === 'Binary') {
    return (value as { value(): Uint8Array }).value();
  }
  throw new TypeError(`expected a binary value, got ${typeof value}`);
}

function isPlainDocument(value: unknown): value is Record<string, unknown> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !(value instanceof Uint8Array) &&
    (value as { _bsontype?: unknown })._bsontype === undefined
  );
}
