/**
 * Everything of one tally instance that needs the database, opened as soon as the database answers and however
 * long that takes: connect (connectDatabase waits for the server with backoff, then derives the write policy), then
 * prepare: the hit pipeline with its indexes (its flushes observed in the metrics, re-sent by createFlushWriter's
 * rule when the database is unavailable), the impression and top-pages collections' indexes.
 *
 * Invariants:
 * - A database that answered the probe and then went away (or froze) while preparing is waited for again, over a
 *   new connection: start-up survives the database coming and going (embedded FerretDB restarts included).
 * - Any other error, or `signal` aborted, rejects; a connection this opened is closed first.
 * - The dimension sources (User-Agent parser, country database) are made once, before the database is awaited: a
 *   bad COUNTRY_DATABASE fails the start at once, and waiting again for the database does not read it again.
 */
import type { Config } from '../config/loadConfig';
import { DEFAULT_RETRY_DELAYS_MS, retryBudgetMs } from '../ingest/createFlushWriter';
import { openHitPipeline } from '../ingest/openHitPipeline';
import type { HitPipeline } from '../ingest/openHitPipeline';
import { loadDimensionSources } from '../ingest/loadDimensionSources';
import type { DimensionSources } from '../ingest/loadDimensionSources';
import type { Logger } from '../logging/createLogger';
import type { Metrics } from '../metrics/createMetrics';
import { connectDatabase } from '../store/connectDatabase';
import type { Database } from '../store/connectDatabase';
import { Deletions } from '../store/Deletions';
import { ImpressionStore } from '../store/ImpressionStore';
import { SitePageScan } from '../store/SitePageScan';
import { isUnavailable } from '../store/translateDriverError';
import { countFlushRetry, flushObserver } from './pipelineMetrics';

export interface Stores {
  readonly database: Database;
  readonly pipeline: HitPipeline;
  /** Deletions of sites and pages, run by a background job (app/startBackgroundJobs). */
  readonly deletions: Deletions;
  readonly impressions: ImpressionStore;
  readonly sitePages: SitePageScan;
}

export async function openStores(
  config: Config,
  deps: {
    readonly uri: string;
    readonly logger: Logger;
    readonly clock: () => number;
    readonly metrics: Metrics;
    readonly signal: AbortSignal | undefined;
    /** INGEST_ACK=log: the ingest log's directory (ingestLogDir). */
    readonly ingestLogDir: string | undefined;
  },
): Promise<Stores> {
  const { logger, signal } = deps;
  const dimensionSources = config.dimensions.enabled ? loadSources(config, logger) : undefined;
  for (let attempt = 1; ; attempt++) {
    const database = await connectDatabase({
      uri: deps.uri,
      dbName: config.mongodbDb,
      logger,
      timeoutMs: config.databaseTimeoutMs,
      signal,
      onCommand: (command) => deps.metrics.mongodbCommands.inc({ command }),
      policy: { targeting: config.documentTargeting, maxUpdatesPerCommand: config.maxUpdatesPerCommand },
    });
    try {
      return await prepare(config, database, { ...deps, dimensionSources });
    } catch (error) {
      await database.close().catch(() => undefined);
      if (!isUnavailable(error) || signal?.aborted) throw error;
      logger.warn({ attempt, err: error }, 'database lost while preparing collections; waiting for it again');
    }
  }
}

function loadSources(config: Config, logger: Logger): DimensionSources {
  const sources = loadDimensionSources(config.dimensions.countryDatabase);
  const database = sources.countries?.description;
  logger.info(
    { path: config.dimensions.countryDatabase ?? '(bundled)', type: database?.type, builtAt: database?.builtAt },
    'country database loaded',
  );
  return sources;
}

async function prepare(
  config: Config,
  database: Database,
  deps: {
    readonly logger: Logger;
    readonly clock: () => number;
    readonly metrics: Metrics;
    readonly dimensionSources: DimensionSources | undefined;
    readonly ingestLogDir: string | undefined;
  },
): Promise<Stores> {
  const { logger, clock, metrics, dimensionSources, ingestLogDir } = deps;
  const pipeline = await openHitPipeline(database, config, {
    logger,
    clock,
    dimensionSources,
    sweepIntervalMs: config.sweepIntervalMs,
    observer: flushObserver(metrics),
    retry: {
      delaysMs: DEFAULT_RETRY_DELAYS_MS,
      budgetMs: retryBudgetMs(config.idempotency.leaseMs, config.databaseTimeoutMs),
      onRetry: countFlushRetry(metrics),
    },
    ingestLog:
      ingestLogDir === undefined
        ? undefined
        : { dir: ingestLogDir, windowMs: config.ingest.windowMs, idleMs: config.ingest.idleMs },
  });
  const windows = pipeline.windows;
  if (windows) metrics.watchIngestLog(() => ({ bytes: windows.logBytes, windows: windows.pendingWindows }));
  metrics.watchVisitSessions(() => pipeline.visitSessionsCached());
  try {
    const impressions = new ImpressionStore(database, { writeConcern: config.ingest.writeConcern });
    await impressions.ensureIndexes();
    // A closed period read without a current page digest is nominated, so the compaction job writes it (old data).
    const sitePages = new SitePageScan(database, {
      onMissingDigest: (level, id, start) => pipeline.counters.nominations.nominate(level, id, start),
    });
    await sitePages.ensureIndexes();
    const deletions = new Deletions(database, pipeline.counters, {
      starting: (target) => pipeline.forget(target.site, target.page),
      deleted: (collection, documents) => metrics.deletedDocuments.inc({ collection }, documents),
    });
    metrics.watchDeletions(() => deletions.pending);
    return { database, pipeline, impressions, sitePages, deletions };
  } catch (error) {
    // The next attempt opens the ingest log again: this one lets go of it (what it holds is replayed then).
    await pipeline.close();
    throw error;
  }
}
