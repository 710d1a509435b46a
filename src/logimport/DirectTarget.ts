/**
 * Writes batches straight into the database through the hit pipeline a server opens (openHitPipeline: the same
 * stores, idempotency ledger, site totals, seconds, visitor secret and dimensions), as the same columns the GraphQL
 * target sends (batchColumns) with each batch's idempotency key, so an import re-run here or through a server skips
 * the same batches. For imports where no server runs; the GraphQL target is the default.
 */
import { AppError } from '../errors/AppError';
import type { HitPipelineSettings } from '../ingest/HitPipelineSettings';
import { openHitPipeline } from '../ingest/openHitPipeline';
import type { HitPipeline } from '../ingest/openHitPipeline';
import type { Logger } from '../logging/createLogger';
import { connectDatabase } from '../store/connectDatabase';
import type { Database } from '../store/connectDatabase';
import type { WritePolicyOverrides } from '../store/WritePolicy';
import { batchColumns } from './batchColumns';
import type { HitBatch } from './HitBatch';
import { ImportTargetError } from './ImportTarget';
import type { ImportTarget } from './ImportTarget';

const CONNECT_DEADLINE_MS = 30_000;

export class DirectTarget implements ImportTarget {
  readonly description: string;

  private constructor(
    private readonly database: Database,
    private readonly pipeline: HitPipeline,
    dbName: string,
  ) {
    this.description = `${database.engine.name} ${database.engine.version}, database ${dbName}`;
  }

  static async open(
    config: HitPipelineSettings & {
      readonly mongodbDb: string;
      readonly documentTargeting: WritePolicyOverrides['targeting'];
      readonly maxUpdatesPerCommand?: number | undefined;
    },
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
        policy: { targeting: config.documentTargeting, maxUpdatesPerCommand: config.maxUpdatesPerCommand },
      });
    } catch (error) {
      if (deadline.aborted) throw new Error(`the database did not answer within ${CONNECT_DEADLINE_MS / 1000} s`);
      if (options.signal?.aborted === true) throw new Error('interrupted while connecting to the database');
      throw error;
    }
    try {
      // An import runs none of the pipeline's background jobs: nothing would preallocate what planners noted.
      const settings = {
        ...config,
        ingest: { ...config.ingest, preallocate: false },
        seconds: { ...config.seconds, preallocate: false },
      };
      // An import has no concurrent single hits to wait for: no group-commit interval.
      const pipeline = await openHitPipeline(database, settings, { clock, logger, flushIntervalMs: 0 });
      return new DirectTarget(database, pipeline, config.mongodbDb);
    } catch (error) {
      await database.close();
      throw error;
    }
  }

  async send(batch: HitBatch): Promise<number> {
    try {
      const result = await this.pipeline.ingest.recordHitColumns(batchColumns(batch), {
        idempotencyKey: batch.idempotencyKey,
      });
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
    try {
      await this.pipeline.close();
    } finally {
      await this.database.close();
    }
  }
}
