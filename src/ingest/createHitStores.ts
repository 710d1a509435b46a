/**
 * The stores hit ingest writes to, configured one way for every entry point (the server, `tally import
 * --mongodb-uri`): the counter collections and the idempotency ledger. Callers create their indexes, since what
 * else they start (sweepers, the seconds collection) differs.
 */
import type { HitPipelineSettings } from './HitPipelineSettings';
import type { Logger } from '../logging/createLogger';
import type { Database } from '../store/connectDatabase';
import { CounterStore } from '../store/CounterStore';
import { RequestLedger } from '../store/requestLedger';
import { HOUR_MS } from '../time/buckets';

export interface HitStores {
  readonly counters: CounterStore;
  readonly ledger: RequestLedger;
}

export function createHitStores(config: HitPipelineSettings, database: Database, logger: Logger): HitStores {
  const writeConcern = config.ingest.writeConcern;
  return {
    counters: new CounterStore(database, {
      writeConcern,
      secondsRetentionMs: config.seconds.retentionHours * HOUR_MS,
      logger,
      targeting: config.documentTargeting === 'auto' ? undefined : config.documentTargeting,
    }),
    ledger: new RequestLedger(database.db, {
      windowMs: config.idempotency.windowHours * HOUR_MS,
      writeConcern: writeConcern === undefined ? undefined : { w: writeConcern as number },
    }),
  };
}
