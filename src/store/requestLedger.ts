/**
 * `ingest.requests`: the idempotency ledger (issue 9). One document per idempotency key, written in one command
 * per flush *before* the flush's counter writes: `{ _id: <key hash>, fp: <payload fingerprint>, now: <arrival>,
 * attempts: [{l: lane, s: seq}], v: <version>, leaseUntil, createdAt }`. The unique `_id` decides which request
 * is first; `attempts` says which flush markers (FlushMark) prove that the request reached a counter document.
 * Entries expire after the window: a TTL index on `createdAt` where the write policy has them, a sweep otherwise
 * (ttlOrSweep).
 */
import type { Collection, Document, WriteConcern } from 'mongodb';
import type { Logger } from '../logging/createLogger';
import type { Database } from './connectDatabase';
import type { LaneSeq } from './FlushMark';
import { isDuplicateKeyOnly } from './isDuplicateKeyOnly';
import { translateDriverError } from './translateDriverError';
import { deleteExpired, ensureTtlOrSweep, sweepPlanFor } from './ttlOrSweep';
import type { ExpiringCollection, ExpiryMode, SweepContext } from './ttlOrSweep';
import type { DocumentReads } from './WritePolicy';

export const REQUESTS_COLLECTION = 'ingest.requests';
const TTL_INDEX_NAME = 'expire_after_window';
/** Up to this many entries are read by exact `_id` one find each where the policy reads so (stock FerretDB). */
const EXACT_ID_READS = 4;

interface RequestDocument {
  _id: string;
  fp: string;
  now: Date;
  attempts: Array<{ l: string; s: number }>;
  v: number;
  leaseUntil: Date;
  createdAt: Date;
}

/** A keyed request about to be written for the first time. */
export interface LedgerClaim {
  readonly id: string;
  readonly fingerprint: string;
  /** The arrival time its hits without `at` were stamped with (a retry re-stamps them alike). */
  readonly now: number;
}

export interface LedgerEntry extends LedgerClaim {
  readonly attempts: readonly LaneSeq[];
  readonly version: number;
  readonly leaseUntil: number;
}

export interface RequestLedgerOptions {
  readonly windowMs: number;
  readonly writeConcern?: WriteConcern | undefined;
  /** Where the expiry mode (TTL index or sweep) is logged once. */
  readonly logger?: Logger | undefined;
}

export class RequestLedger {
  private readonly collection: Collection<RequestDocument>;
  private readonly expiry: ExpiryMode;
  private readonly reads: DocumentReads;
  private readonly engineName: string;
  /** The sweep's view: expired ids found on the background connection, deleted through the main one. */
  private readonly expiring: ExpiringCollection;

  constructor(
    database: Database,
    private readonly options: RequestLedgerOptions,
  ) {
    this.collection = database.db.collection<RequestDocument>(REQUESTS_COLLECTION);
    this.expiry = database.policy.expiry;
    this.reads = database.policy.reads;
    this.engineName = database.engine.name;
    this.expiring = {
      what: 'idempotency keys',
      finder: database.backgroundDb().collection(REQUESTS_COLLECTION),
      writer: this.collection as unknown as Collection<Document>,
      field: 'createdAt',
      plan: sweepPlanFor(this.reads),
    };
  }

  /** The expiry index where the policy has TTL indexes; returns which mode expires entries. */
  ensureIndexes(): Promise<ExpiryMode> {
    const index = {
      field: 'createdAt',
      name: TTL_INDEX_NAME,
      expireAfterSeconds: Math.ceil(this.options.windowMs / 1000),
    };
    return ensureTtlOrSweep(this.collection, index, {
      mode: this.expiry,
      what: 'idempotency keys',
      engine: this.engineName,
      reads: this.reads,
      logger: this.options.logger,
    });
  }

  /**
   * Records every claim as attempted by `attempt`, in one insert command. Returns the ids that were already
   * there (claimed by an earlier or concurrent request): those must not be written by this flush.
   */
  async claim(
    claims: readonly LedgerClaim[],
    attempt: LaneSeq,
    times: { readonly now: number; readonly leaseMs: number },
  ): Promise<Set<string>> {
    const documents = claims.map((c): RequestDocument => ({
      _id: c.id,
      fp: c.fingerprint,
      now: new Date(c.now),
      attempts: [{ l: attempt.lane, s: attempt.seq }],
      v: 1,
      leaseUntil: new Date(times.now + times.leaseMs),
      createdAt: new Date(times.now),
    }));
    let pending = documents;
    let collided = false;
    for (let round = 0; pending.length > 0; round++) {
      try {
        await this.collection.insertMany(pending, this.writeOptions());
        break;
      } catch (error) {
        if (!isDuplicateKeyOnly(error) || round >= 3) throw translateDriverError(error);
        collided = true;
        // Which inserts went through is read back rather than taken from the error: FerretDB 1.24 stops an
        // unordered insert at its first error and misreports its index.
        const found = new Set((await this.findMany(pending.map((d) => d._id))).map((d) => d._id));
        pending = pending.filter((d) => !found.has(d._id));
      }
    }
    // Without a collision every claim is ours: no read.
    if (!collided) return new Set();
    const stored = await this.findMany(documents.map((d) => d._id));
    const mine = (d: RequestDocument): boolean => d.attempts[0]?.l === attempt.lane && d.attempts[0]?.s === attempt.seq;
    return new Set(stored.filter((d) => !mine(d)).map((d) => d._id));
  }

  async find(id: string): Promise<LedgerEntry | undefined> {
    const [document] = await this.findMany([id]);
    return document && toEntry(document);
  }

  /**
   * Compare-and-set: adds a new attempt and a new lease if nobody changed the entry since `entry` was read.
   * Returns false when another writer took it over first.
   */
  async takeOver(entry: LedgerEntry, attempt: LaneSeq, leaseUntil: number): Promise<boolean> {
    try {
      const result = await this.collection.updateOne(
        { _id: entry.id, v: entry.version },
        {
          $push: { attempts: { l: attempt.lane, s: attempt.seq } },
          $set: { leaseUntil: new Date(leaseUntil), v: entry.version + 1 },
        },
        this.writeOptions(),
      );
      return result.modifiedCount === 1;
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  /**
   * The sweep for engines without TTL indexes: deletes entries older than the window, in bounded steps. Entries are
   * created in the order they expire (one insert each, never re-inserted), so a sweep reading them in creation order
   * finds every expired one.
   */
  async sweep(now: number, context?: SweepContext): Promise<number> {
    try {
      return await deleteExpired(this.expiring, now - this.options.windowMs, context);
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  private async findMany(ids: readonly string[]): Promise<RequestDocument[]> {
    try {
      // Stock FerretDB looks up only an exact _id by index: one find each for a handful there, one $in otherwise.
      if (this.reads === 'exactIds' && ids.length <= EXACT_ID_READS) {
        const found = await Promise.all(ids.map((id) => this.collection.findOne({ _id: id })));
        return found.filter((d): d is RequestDocument => d !== null);
      }
      return await this.collection.find({ _id: { $in: [...ids] } }).toArray();
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  private writeOptions(): { ordered: false; writeConcern?: WriteConcern } {
    return { ordered: false, ...(this.options.writeConcern ? { writeConcern: this.options.writeConcern } : {}) };
  }
}

function toEntry(d: RequestDocument): LedgerEntry {
  return {
    id: d._id,
    fingerprint: d.fp,
    now: d.now.getTime(),
    attempts: d.attempts.map((a) => ({ lane: a.l, seq: a.s })),
    version: d.v,
    leaseUntil: d.leaseUntil.getTime(),
  };
}
