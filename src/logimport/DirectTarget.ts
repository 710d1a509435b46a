/**
 * Writes batches straight into the database through the same ingest core a server uses (HitIngest →
 * GroupCommitter → CounterStore, wired by createHitIngestCore as for the server), with each batch's idempotency key.
 * For imports where no server runs; the GraphQL target is the default.
 */
import type { HitPipelineSettings } from '../ingest/HitPipelineSettings';
import { AppError } from '../errors/AppError';
import { createHitStores } from '../ingest/createHitStores';
import { createHitIngestCore } from '../ingest/createHitIngestCore';
import type { GroupCommitter } from '../ingest/GroupCommitter';
import type { HitIngest } from '../ingest/HitIngest';
import type { Logger } from '../logging/createLogger';
import { connectDatabase } from '../store/connectDatabase';
import type { Database } from '../store/connectDatabase';
import type { HitBatch } from './HitBatch';
import { ImportTargetError } from './ImportTarget';
import type { ImportTarget } from './ImportTarget';

const CONNECT_DEADLINE_MS = 30_000;

export class DirectTarget implements ImportTarget {
  readonly description: string;

  private constructor(
    private readonly database: Database,
    private readonly committer: GroupCommitter,
    private readonly ingest: HitIngest,
    dbName: string,
  ) {
    this.description = `${database.engine.name} ${database.engine.version}, database ${dbName}`;
  }

  static async open(
    config: HitPipelineSettings & { readonly mongodbDb: string; readonly databaseTimeoutMs: number },
    uri: string,
    logger: Logger,
    options: { clock?: (() => number) | undefined; signal?: AbortSignal | undefined } = {},
  ): Promise<DirectTarget> {
    const clock = options.clock ?? Date.now;
    // A server keeps waiting for its database; an import gives up after a while (or at Ctrl-C) and says so.
    const deadline = AbortSignal.timeout(CONNECT_DEADLINE_MS);
    let database: Database;
    try {
      database = await connectDatabase({
        uri,
        dbName: config.mongodbDb,
        logger,
        appName: 'tally-import',
        timeoutMs: config.databaseTimeoutMs,
        signal: options.signal ? AbortSignal.any([options.signal, deadline]) : deadline,
      });
    } catch (error) {
      if (deadline.aborted) throw new Error(`the database did not answer within ${CONNECT_DEADLINE_MS / 1000} s`);
      if (options.signal?.aborted === true) throw new Error('interrupted while connecting to the database');
      throw error;
    }
    try {
      // The same stores and idempotency ledger a server uses: an import re-run here or through a server skips the
      // same batches.
      const { counters, ledger } = createHitStores(config, database, logger);
      await counters.ensureIndexes();
      if (config.seconds.enabled) await counters.ensureSecondsIndexes();
      await ledger.ensureIndexes(database.engine, logger);
      // The server's own ingest core: imported hits count in site totals and seconds exactly as served ones do.
      const { committer, ingest } = createHitIngestCore({
        config,
        counters,
        ledger,
        clock,
        singleWriter: database.engine.requiresSingleWriter,
        intervalMs: 0,
      });
      return new DirectTarget(database, committer, ingest, config.mongodbDb);
    } catch (error) {
      await database.close();
      throw error;
    }
  }

  async send(batch: HitBatch): Promise<number> {
    const inputs = batch.hits.map((hit) => ({
      site: hit.site,
      page: hit.page,
      at: new Date(hit.at),
      count: hit.count,
    }));
    try {
      const result = await this.ingest.recordHits(inputs, { idempotencyKey: batch.idempotencyKey });
      return result.total;
    } catch (error) {
      if (error instanceof AppError) {
        const code: string = error.code;
        if (code === 'SERVICE_UNAVAILABLE' || code === 'IDEMPOTENCY_KEY_IN_PROGRESS') {
          throw new ImportTargetError('retry', error.message);
        }
        throw new ImportTargetError('batch', `${code}: ${error.message}`);
      }
      throw new ImportTargetError('abort', error instanceof Error ? error.message : String(error));
    }
  }

  async close(): Promise<void> {
    await this.committer.drain();
    await this.database.close();
  }
}
