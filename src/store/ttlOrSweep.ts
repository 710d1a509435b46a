/**
 * Expiry after a window, one way for every collection that needs it (the idempotency ledger, second-level
 * counters): a TTL index where the write policy says the server has them, created or adjusted to the window; a
 * periodic `deleteMany` sweep otherwise, or when the server refuses the index anyway (FerretDB 1.x, code 238).
 * The sweep's runner is here too: the caller starts it when ensureTtlOrSweep answered 'sweep'.
 */
import { MongoServerError } from 'mongodb';
import type { Collection, Document } from 'mongodb';
import type { Logger } from '../logging/createLogger';

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
    readonly logger?: Logger | undefined;
  },
): Promise<ExpiryMode> {
  const mode = options.mode === 'ttl' ? await createTtlIndex(collection, index) : 'sweep';
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

/** A periodic sweep: deletes what expired at `now` and resolves with how many documents it deleted. */
export interface Sweep {
  /** What is swept, for the log ("idempotency keys"). */
  readonly what: string;
  readonly intervalMs: number;
  sweep(now: number): Promise<number>;
}

/**
 * Runs `sweep(clock())` every `intervalMs` until stopped. A run never overlaps the previous one; a failure is
 * logged and retried at the next tick. The timer does not keep the process alive.
 */
export function startSweeper(sweep: Sweep, clock: () => number, logger: Logger): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweep
      .sweep(clock())
      .then((deleted) => {
        if (deleted > 0) logger.debug({ deleted }, `swept expired ${sweep.what}`);
      })
      .catch((error: unknown) => logger.warn({ err: error }, `retention sweep of ${sweep.what} failed`))
      .finally(() => {
        running = false;
      });
  }, sweep.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
