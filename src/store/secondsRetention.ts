/**
 * Expiry of second-level documents after the retention window: a TTL index on metadata.date where the server
 * has TTL indexes (MongoDB), a periodic deleteMany sweep where it refuses them (FerretDB 1.x, code 238).
 * Only `stats.seconds` is ever expired; daily and monthly documents keep every hit.
 */
import { MongoServerError } from 'mongodb';
import type { Collection } from 'mongodb';
import type { Logger } from '../logging/createLogger';
import { MINUTE_MS } from '../time/buckets';
import type { EngineInfo } from './EngineInfo';
import { SECONDS_TTL_INDEX_NAME } from './secondStats';
import type { SecondStatsDocument } from './secondStats';

export type SecondsRetentionMode = 'ttl' | 'sweep';

/** FerretDB 1.x answers createIndex with expireAfterSeconds with NotImplemented. */
const NOT_IMPLEMENTED = 238;
/** An index of that name exists with other options (a changed retention window). */
const INDEX_OPTIONS_CONFLICT = 85;

/**
 * Documents starting before this instant are wholly outside the window: a minute document is kept until its
 * last second has left the window, so a range starting anywhere inside the window never reads a gap.
 */
export function secondsExpiryCutoff(now: number, retentionMs: number): number {
  return now - retentionMs - MINUTE_MS;
}

/** Creates (or adjusts) the TTL index, or reports that the server needs the sweep instead. */
export async function ensureSecondsRetention(
  collection: Collection<SecondStatsDocument>,
  engine: EngineInfo,
  retentionMs: number,
  logger: Logger | undefined,
): Promise<SecondsRetentionMode> {
  const mode = engine.supportsTtlIndexes ? await createTtlIndex(collection, retentionMs) : 'sweep';
  logger?.info(
    { mode, retentionHours: retentionMs / 3_600_000, engine: engine.name },
    mode === 'ttl'
      ? 'second-level counters expire through a TTL index'
      : `${engine.name} has no TTL indexes: second-level counters expire through a periodic sweep`,
  );
  return mode;
}

async function createTtlIndex(
  collection: Collection<SecondStatsDocument>,
  retentionMs: number,
): Promise<SecondsRetentionMode> {
  // The TTL clock runs from metadata.date (the minute's start): add a minute, as secondsExpiryCutoff does.
  const expireAfterSeconds = Math.round((retentionMs + MINUTE_MS) / 1000);
  try {
    await collection.createIndex({ 'metadata.date': 1 }, { name: SECONDS_TTL_INDEX_NAME, expireAfterSeconds });
    return 'ttl';
  } catch (error) {
    if (!(error instanceof MongoServerError)) throw error;
    if (error.code === NOT_IMPLEMENTED) return 'sweep';
    if (error.code === INDEX_OPTIONS_CONFLICT) {
      await collection.db.command({
        collMod: collection.collectionName,
        index: { name: SECONDS_TTL_INDEX_NAME, expireAfterSeconds },
      });
      return 'ttl';
    }
    throw error;
  }
}

/** Runs `sweep(clock())` every `intervalMs` until stopped; failures are logged and retried at the next tick. */
export function startSecondsSweeper(options: {
  sweep: (now: number) => Promise<number>;
  clock: () => number;
  logger: Logger;
  intervalMs: number;
  /** What is swept, for the log (default: second-level documents). */
  what?: string;
}): { stop(): void } {
  const { sweep, clock, logger } = options;
  const what = options.what ?? 'second-level documents';
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweep(clock())
      .then((deleted) => {
        if (deleted > 0) logger.debug({ deleted }, `swept expired ${what}`);
      })
      .catch((error: unknown) => logger.warn({ err: error }, `retention sweep of ${what} failed`))
      .finally(() => {
        running = false;
      });
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
