/**
 * What the hit pipeline needs of the configuration. config/loadConfig's Config satisfies it; ingest declares what it
 * reads instead of importing the whole configuration, so the arrow points from config to ingest. How to write to
 * the server (targeting, single writer, TTL or sweep) is not here: it is the Database's WritePolicy.
 */
import type { HitLimits } from '../domain/Hit';

export interface HitPipelineSettings {
  readonly ingest: HitLimits & {
    readonly flushIntervalMs: number;
    /** Flushes in flight, capped by the write policy (WritePolicy.maxFlushesInFlight). */
    readonly flushConcurrency: number;
    readonly maxFlushDocuments: number;
    readonly writeConcern: string | number | undefined;
    /** Preallocate tomorrow's documents of active pages (a background job the caller runs). */
    readonly preallocate: boolean;
  };
  readonly seconds: {
    readonly enabled: boolean;
    readonly retentionHours: number;
    /** Preallocate the next hour's minute documents of active pages (a background job the caller runs). */
    readonly preallocate: boolean;
  };
  readonly dashboards: { readonly siteTotals: boolean };
  readonly idempotency: { readonly windowHours: number; readonly leaseMs: number; readonly waitMs: number };
}
