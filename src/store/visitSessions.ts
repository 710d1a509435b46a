/**
 * `visits.sessions` (issue 29): each visitor's current visit on a site, shared by every instance, so a visit is one
 * visit however its hits are spread over instances. One document per hash of (site, visitor) (visitSessionId:
 * reveals neither), holding the VisitState the next hit needs, and nothing else about the visitor:
 *   `{ _id, w: "<lane>:<seq>", z: <state>, o: { <lane>: { q: <seq>, p: <state before> } }, x: <expires at> }`
 * - A state is one binary value: the engine carries one value instead of a tree of about twenty fields, which
 *   FerretDB decodes and encodes field by field on every upsert (278 against 441–665 µs of its CPU per session
 *   upsert, docs/benchmarks/visits.md). Its bytes are visitStateBytes' layout (subtype user-defined), a third of the
 *   fields' BSON. States written by earlier versions, the fields' BSON (subtype generic) or the tree, are still read.
 * - `w` names the write that made the state: writes are conditional on it (compare-and-set), so of two instances
 *   advancing one visit at once, one wins and the other re-reads and re-applies (VisitSessionStore.advance).
 * - `o.<lane>` is the flush mark's outbox: the state before that lane's write `q`. A window re-sent after a crash
 *   that finds its own `q` recomputes the same counter changes from `p` instead of applying its hits twice; one that
 *   finds a later `q` of its lane knows the window's counters were all written.
 * - `x` expires it: a TTL index where the engine has them, a sweep otherwise.
 */
import { createHash } from 'node:crypto';
import { Binary, BSON } from 'mongodb';
import type { AnyBulkWriteOperation, Collection, Document, WriteConcern } from 'mongodb';
import type { DimensionValues } from '../domain/dimensions/Dimension';
import type { Hash64 } from '../domain/visitors/Hash64';
import type { VisitState } from '../domain/visits/VisitState';
import { decodeVisitState, encodeVisitState } from '../domain/visits/visitStateBytes';
import type { Logger } from '../logging/createLogger';
import type { Database } from './connectDatabase';
import type { FlushMark, LaneSeq } from './FlushMark';
import { deleteExpired, ensureTtlOrSweep, sweepPlanFor } from './ttlOrSweep';
import type { ExpiringCollection, ExpiryMode, SweepContext } from './ttlOrSweep';
import { isDuplicateKeyOnly } from './isDuplicateKeyOnly';
import { translateDriverError } from './translateDriverError';
import { TimeSlice } from '../time/TimeSlice';

export const VISIT_SESSIONS_COLLECTION = 'visits.sessions';
const EXPIRY_FIELD = 'x';
const TTL_INDEX_NAME = 'expire_x';

interface StoredState {
  s: number;
  l: number;
  e: string;
  x: string;
  n: number;
  b: boolean;
  d?: DimensionValues;
  g: number[];
}

/** A state as stored: visitStateBytes in a user-defined binary; before that, StoredState's BSON in a binary, or the tree. */
type StateValue = Binary | StoredState;

export interface VisitSessionDocument {
  _id: string;
  w: string;
  z: StateValue;
  o?: Record<string, { q: number; p: StateValue | null }>;
  x: Date;
}

/** A session as read: its state, who wrote it, and what each lane's last write found before it. */
export interface StoredSession {
  readonly id: string;
  readonly version: string;
  readonly state: VisitState;
  readonly outbox: ReadonlyMap<string, { readonly seq: number; readonly before: VisitState | undefined }>;
}

/** One conditional write: the session `id` goes from `expected` (undefined: none stored) to `state`. */
export interface SessionWrite {
  readonly id: string;
  readonly expected: string | undefined;
  readonly state: VisitState;
  readonly before: VisitState | undefined;
}

/** The session id of a visitor on a site: a hash of both, so the id reveals neither. */
export function visitSessionId(site: string, visitor: Hash64): string {
  return createHash('sha256')
    .update(site)
    .update('\u0000')
    .update(`${visitor.hi.toString(16)}.${visitor.lo.toString(16)}`)
    .digest('base64url')
    .slice(0, 22);
}

export function writeVersion(mark: LaneSeq): string {
  return `${mark.lane}:${mark.seq}`;
}

export interface VisitSessionStoreOptions {
  readonly writeConcern?: WriteConcern | undefined;
  /** How long a session outlives its last write (the visit timeout, with a margin for late hits). */
  readonly keepMs: number;
  readonly logger?: Logger | undefined;
}

export class VisitSessionStore {
  private readonly reader: Collection<VisitSessionDocument>;
  private readonly writer: Collection<VisitSessionDocument>;
  private readonly expiring: ExpiringCollection;

  constructor(
    private readonly database: Database,
    private readonly options: VisitSessionStoreOptions,
  ) {
    this.reader = database.db.collection<VisitSessionDocument>(VISIT_SESSIONS_COLLECTION);
    this.writer = database
      .writerDb(VISIT_SESSIONS_COLLECTION)
      .collection<VisitSessionDocument>(VISIT_SESSIONS_COLLECTION);
    const plan = sweepPlanFor(database.policy.reads);
    this.expiring = {
      what: 'visit sessions',
      finder: database.backgroundDb().collection(VISIT_SESSIONS_COLLECTION),
      writer: this.writer as unknown as Collection<Document>,
      field: EXPIRY_FIELD,
      // Sessions are rewritten, so creation order is not expiry order: without a range index, look at them all.
      plan: plan.scan === 'range' ? plan : { ...plan, scan: 'all' },
    };
  }

  ensureIndexes(): Promise<ExpiryMode> {
    return ensureTtlOrSweep(
      this.reader,
      { field: EXPIRY_FIELD, name: TTL_INDEX_NAME, expireAfterSeconds: 0 },
      {
        mode: this.database.policy.expiry,
        what: 'visit sessions',
        engine: this.database.engine.name,
        reads: this.database.policy.reads,
        logger: this.options.logger,
      },
    );
  }

  /** The stored sessions of `ids` (one find; those with none are absent). */
  async read(ids: readonly string[]): Promise<Map<string, StoredSession>> {
    const found = new Map<string, StoredSession>();
    if (ids.length === 0) return found;
    try {
      const documents = await this.writer.find({ _id: { $in: [...ids] } }).toArray();
      for (const document of documents) found.set(document._id, fromDocument(document));
      return found;
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  /**
   * Writes each session if it is still at its expected version, in one unordered bulk write in `_id` order; returns
   * the ids that lost (another write got there first). Where a write fails for any other reason, throws.
   * Losers are found by reading back rather than from the error's indexes (FerretDB 1.24 stops an unordered bulk
   * write at its first error and misreports its index).
   */
  async write(
    writes: readonly SessionWrite[],
    mark: FlushMark | undefined,
    version: string,
    now: number,
    slice: TimeSlice = new TimeSlice(),
  ): Promise<Set<string>> {
    if (writes.length === 0) return new Set();
    const sorted = [...writes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const expires = new Date(now + this.options.keepMs);
    const operations: AnyBulkWriteOperation<VisitSessionDocument>[] = [];
    for (const write of sorted) {
      if (slice.due()) await slice.pause();
      const z = encodeState(write.state);
      const outbox = mark && {
        lane: mark.mark.lane,
        entry: { q: mark.mark.seq, p: write.before ? encodeState(write.before) : null },
      };
      if (write.expected === undefined) {
        // A session believed new is inserted: an existing `_id` fails it with a duplicate key, the compare-and-set's
        // "lost", as an upsert conditional on no version would; an engine that rewrites documents whole (FerretDB)
        // inserts for less than it upserts.
        const document: VisitSessionDocument = { _id: write.id, w: version, z, [EXPIRY_FIELD]: expires };
        if (outbox) document.o = { [outbox.lane]: outbox.entry };
        operations.push({ insertOne: { document } });
        continue;
      }
      const set: Document = { w: version, z, [EXPIRY_FIELD]: expires };
      if (outbox) set[`o.${outbox.lane}`] = outbox.entry;
      // An upsert whose filter misses an existing `_id` fails with a duplicate key: the compare-and-set's "lost".
      const filter: Document = { _id: write.id, w: write.expected };
      operations.push({ updateOne: { filter, update: { $set: set }, upsert: true } });
    }
    try {
      await this.writer.bulkWrite(operations, { ordered: false, ...this.writeOptions() });
      return new Set();
    } catch (error) {
      if (!isDuplicateKeyOnly(error)) throw translateDriverError(error);
    }
    const stored = await this.read(sorted.map((write) => write.id));
    return new Set(sorted.filter((write) => stored.get(write.id)?.version !== version).map((write) => write.id));
  }

  /** Deletes expired sessions where no TTL index does (FerretDB 1.x). */
  async sweep(now: number, context?: SweepContext): Promise<number> {
    try {
      return await deleteExpired(this.expiring, now, context);
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  private writeOptions(): { writeConcern?: WriteConcern } {
    return this.options.writeConcern ? { writeConcern: this.options.writeConcern } : {};
  }
}

function encodeState(state: VisitState): Binary {
  return new Binary(encodeVisitState(state), Binary.SUBTYPE_USER_DEFINED);
}

function decodeState(value: StateValue): VisitState {
  if (!(value instanceof Binary)) return fromStored(value);
  if (value.sub_type === Binary.SUBTYPE_USER_DEFINED) return decodeVisitState(value.value());
  return fromStored(BSON.deserialize(value.value()) as StoredState);
}

function fromStored(stored: StoredState): VisitState {
  return {
    start: stored.s,
    last: stored.l,
    entry: stored.e,
    exit: stored.x,
    views: stored.n,
    bounced: stored.b,
    dimensions: stored.d,
    seen: stored.g,
  };
}

function fromDocument(document: VisitSessionDocument): StoredSession {
  const outbox = new Map<string, { seq: number; before: VisitState | undefined }>();
  for (const [lane, entry] of Object.entries(document.o ?? {})) {
    outbox.set(lane, { seq: entry.q, before: entry.p === null ? undefined : decodeState(entry.p) });
  }
  return { id: document._id, version: document.w, state: decodeState(document.z), outbox };
}
