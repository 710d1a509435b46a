/**
 * Expiry after a window, one way for every collection that needs it (the idempotency ledger, second-level
 * counters): a TTL index where the write policy says the server has them, created or adjusted to the window; a
 * periodic sweep otherwise, or when the server refuses the index anyway (FerretDB 1.x, code 238).
 *
 * A sweep never holds a writer for long (issue 21: one `deleteMany` by date scanned the whole table on the
 * collection's only writer connection, and the flush waiting behind it timed out). It finds expired ids on a
 * connection no flush waits on (Database.backgroundDb), a bounded number at a time, then deletes them by `_id`
 * in commands of SWEEP_DELETE_SIZE on the writer, resting between steps, so a flush waits for one such command at
 * most and the sweep leaves the database idle half the time. How it finds them depends on the engine (SweepPlan).
 */
import { MongoServerError } from 'mongodb';
import type { Collection, Document } from 'mongodb';
import type { Logger } from '../logging/createLogger';
import { unwatched } from './StepWatch';
import type { StepWatch } from './StepWatch';
import type { DocumentReads } from './WritePolicy';

export type ExpiryMode = 'ttl' | 'sweep';

export interface TtlIndex {
  /** The date field the TTL clock runs from. */
  readonly field: string;
  readonly name: string;
  readonly expireAfterSeconds: number;
}

/** FerretDB 1.x answers createIndex with expireAfterSeconds with NotImplemented. */
const NOT_IMPLEMENTED = 238;
/** An index of that name exists with other options (a changed window): collMod adjusts it. */
const INDEX_OPTIONS_CONFLICT = 85;

/** Creates (or adjusts) the TTL index where `mode` is 'ttl'; returns which mode expires the documents. */
export async function ensureTtlOrSweep<T extends Document>(
  collection: Collection<T>,
  index: TtlIndex,
  options: {
    readonly mode: ExpiryMode;
    /** What expires, for the log ("idempotency keys"). */
    readonly what: string;
    readonly engine: string;
    /** How the engine reads: where range filters use indexes, a sweep gets an index on the date field. */
    readonly reads: DocumentReads;
    readonly logger?: Logger | undefined;
  },
): Promise<ExpiryMode> {
  const mode = options.mode === 'ttl' ? await createTtlIndex(collection, index) : 'sweep';
  if (mode === 'sweep' && sweepPlanFor(options.reads).scan === 'range') {
    await collection.createIndex({ [index.field]: 1 }, { name: `sweep_${index.field}` });
  }
  options.logger?.info(
    { mode, collection: collection.collectionName, expireAfterSeconds: index.expireAfterSeconds },
    mode === 'ttl'
      ? `${options.what} expire through a TTL index`
      : `${options.engine} has no TTL indexes: ${options.what} expire through a periodic sweep`,
  );
  return mode;
}

async function createTtlIndex<T extends Document>(collection: Collection<T>, index: TtlIndex): Promise<ExpiryMode> {
  const { field, name, expireAfterSeconds } = index;
  try {
    await collection.createIndex({ [field]: 1 }, { name, expireAfterSeconds });
    return 'ttl';
  } catch (error) {
    if (!(error instanceof MongoServerError)) throw error;
    if (error.code === NOT_IMPLEMENTED) return 'sweep';
    if (error.code !== INDEX_OPTIONS_CONFLICT) throw error;
    await collection.db.command({ collMod: collection.collectionName, index: { name, expireAfterSeconds } });
    return 'ttl';
  }
}

/**
 * How a sweep finds expired documents on an engine:
 * - `range` where range filters are served by an index (MongoDB-like engines without TTL indexes): the oldest
 *   expired ids by an index scan on the date field, SWEEP_READ_SIZE at a time.
 * - `head` where every filter but an exact `_id` (or `_id` list) decodes the whole table (FerretDB 1.x on SQLite,
 *   about 0.25 ms a document: 20,000 minute documents took 5 s). There only a filterless read with a limit stops
 *   early, so the sweep reads the first SWEEP_READ_SIZE documents in natural order, which is creation order
 *   (SQLite's rowid; an update keeps it), deletes the expired among them, and goes on while a whole read was
 *   expired. Ledger entries are created in expiry order, so this is exact for them. A minute document is created
 *   by its minute's first hit (or up to two hours early, when preallocated, page by page): one created late, for a
 *   hit with an old `at`, or behind a preallocated hour that has not wholly expired, goes when what was created
 *   before it has gone — at most a retention window plus two hours (and a sweep interval) after its own expiry.
 *   Queries never read it: series ranges are bounded by the retention.
 * Deletes are by `_id` list (`idList`), or one `deleteOne` by exact `_id` each where the engine indexes nothing
 * else (`exactIds`: stock FerretDB).
 */
export interface SweepPlan {
  /** `all`: every document's expiry is read (rewritten documents, whose creation order is not their expiry order). */
  readonly scan: 'head' | 'range' | 'all';
  readonly deletes: 'idList' | 'exactIds';
}

export function sweepPlanFor(reads: DocumentReads): SweepPlan {
  return {
    scan: reads === 'shardKeyRanges' ? 'range' : 'head',
    deletes: reads === 'exactIds' ? 'exactIds' : 'idList',
  };
}

/** Documents read per step while looking for expired ones. */
export const SWEEP_READ_SIZE = 500;
/** Ids per delete command: on FerretDB about 0.4 ms each, so a flush waits about 100 ms at most behind one. */
export const SWEEP_DELETE_SIZE = 250;
/** The longest rest between two steps of a sweep. */
const MAX_REST_MS = 1_000;

/** One expiring collection, as a sweep sees it. */
export interface ExpiringCollection {
  /** What expires, for logs and step names ("second-level documents"). */
  readonly what: string;
  /** Where expired ids are looked for: a connection no flush waits on (Database.backgroundDb). */
  readonly finder: Collection<Document>;
  /** Where they are deleted: the collection's writer (Database.writerDb, or the main Db for the ledger). */
  readonly writer: Collection<Document>;
  /** The date field the window runs from. */
  readonly field: string;
  readonly plan: SweepPlan;
}

/** What a running sweep is given: a watch over its steps, and whether it should stop (shutdown). */
export interface SweepContext {
  readonly watch: StepWatch;
  readonly stopped: () => boolean;
}

const UNSTOPPED: SweepContext = { watch: unwatched, stopped: () => false };

/**
 * Deletes the documents of `target` whose date is before `cutoff`, in bounded steps; resolves with how many went.
 * After each step it rests as long as the step took (at most MAX_REST_MS): a sweep keeps the database busy half the
 * time at most, and whoever queued for the connection meanwhile (a flush) goes first.
 */
export async function deleteExpired(
  target: ExpiringCollection,
  cutoff: number,
  context: SweepContext = UNSTOPPED,
): Promise<number> {
  const { field, plan, what } = target;
  const before = new Date(cutoff);
  const step = <T>(description: string, run: () => Promise<T>): Promise<T> => pacedStep(context, description, run);
  let deleted = 0;
  while (!context.stopped()) {
    const found =
      plan.scan === 'range'
        ? await step(`finding up to ${SWEEP_READ_SIZE} expired ${what}`, () =>
            target.finder
              .find({ [field]: { $lt: before } }, { projection: { _id: 1, [field]: 1 }, sort: { [field]: 1 } })
              .limit(SWEEP_READ_SIZE)
              .toArray(),
          )
        : plan.scan === 'all'
          ? await step(`reading every ${what}`, () =>
              target.finder.find({}, { projection: { _id: 1, [field]: 1 } }).toArray(),
            )
          : await step(`reading the ${SWEEP_READ_SIZE} oldest ${what}`, () =>
              target.finder
                .find({}, { projection: { _id: 1, [field]: 1 } })
                .limit(SWEEP_READ_SIZE)
                .toArray(),
            );
    const expired = found.filter((document) => dateAt(document, field) < cutoff).map((document) => document._id);
    let round = 0;
    for (let i = 0; i < expired.length && !context.stopped(); i += SWEEP_DELETE_SIZE) {
      const ids = expired.slice(i, i + SWEEP_DELETE_SIZE);
      round += await step(`deleting ${ids.length} expired ${what}`, () => deleteIds(target, ids, before));
    }
    deleted += round;
    const more =
      plan.scan !== 'all' && found.length === SWEEP_READ_SIZE && expired.length === found.length && round > 0;
    if (!more) break;
  }
  return deleted;
}

async function deleteIds(target: ExpiringCollection, ids: readonly unknown[], before: Date): Promise<number> {
  if (target.plan.deletes === 'exactIds') {
    const result = await target.writer.bulkWrite(
      ids.map((id) => ({ deleteOne: { filter: { _id: id } as Document } })),
      { ordered: false },
    );
    return result.deletedCount;
  }
  // The date condition again: an id freed and taken again since it was read (a key used anew) is left alone.
  const result = await target.writer.deleteMany({ _id: { $in: ids }, [target.field]: { $lt: before } } as Document);
  return result.deletedCount;
}

/** The document's date at a dotted path, as epoch ms; NaN when it has none (never expired by a sweep). */
function dateAt(document: Document, path: string): number {
  let value: unknown = document;
  for (const key of path.split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
  return value instanceof Date ? value.getTime() : Number.NaN;
}

/** A periodic sweep: deletes what expired at `now` and resolves with how many documents it deleted. */
export interface Sweep {
  /** What is swept, for the log ("idempotency keys"). */
  readonly what: string;
  readonly intervalMs: number;
  sweep(now: number, context: SweepContext): Promise<number>;
}

/**
 * Runs `sweep(clock())` every `intervalMs` until stopped. A run never overlaps the previous one; a failure is
 * logged and retried at the next tick; stop() also ends a run in progress at its next step. The timer does not keep
 * the process alive.
 */
export function startSweeper(
  sweep: Sweep,
  clock: () => number,
  logger: Logger,
  watch: StepWatch = unwatched,
): { stop(): void } {
  let running = false;
  let stopped = false;
  const context: SweepContext = { watch, stopped: () => stopped };
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweep
      .sweep(clock(), context)
      .then((deleted) => {
        if (deleted > 0) logger.debug({ documents: deleted }, `background job on ${sweep.what}: ${deleted} documents`);
      })
      .catch((error: unknown) => logger.warn({ err: error }, `background job on ${sweep.what} failed`))
      .finally(() => {
        running = false;
      });
  }, sweep.intervalMs);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/**
 * Runs one watched step of background work, then rests as long as it took (at most MAX_REST_MS): the job keeps the
 * database busy half the time at most, and whoever queued for the connection meanwhile (a flush) goes first.
 */
export async function pacedStep<T>(context: SweepContext, description: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await context.watch(description, run);
  await rest(Math.min(MAX_REST_MS, performance.now() - started));
  return result;
}

/** Waits `ms` (at least one turn of the event loop): I/O callbacks and queued operations run first. */
function rest(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
