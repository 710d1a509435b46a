/**
 * What hit ingest needs of the configuration. config/loadConfig's Config satisfies it; ingest declares what it
 * reads instead of importing the whole configuration, so the arrow points from config to ingest.
 */
import type { HitLimits } from '../domain/Hit';

export interface HitPipelineSettings {
  readonly ingest: HitLimits & {
    readonly flushIntervalMs: number;
    readonly flushConcurrency: number;
    readonly maxFlushDocuments: number;
    readonly writeConcern: string | number | undefined;
  };
  readonly seconds: { readonly enabled: boolean; readonly retentionHours: number };
  readonly dashboards: { readonly siteTotals: boolean };
  readonly idempotency: { readonly windowHours: number; readonly leaseMs: number; readonly waitMs: number };
  readonly documentTargeting: 'auto' | 'shardKey' | 'idOnly';
}
