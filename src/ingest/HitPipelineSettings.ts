/**
 * What the hit pipeline needs of the configuration. config/loadConfig's Config satisfies it; ingest declares what it
 * reads instead of importing the whole configuration, so the arrow points from config to ingest. How to write to
 * the server (targeting, single writer, TTL or sweep) is not here: it is the Database's WritePolicy.
 */
import type { Dimension } from '../domain/dimensions/Dimension';
import type { HitLimits } from '../domain/Hit';
import type { RetentionSettings } from '../time/retentionCutoffs';
import type { SaltRotation } from './saltPeriod';

export interface HitPipelineSettings {
  /** MONGODB_TIMEOUT_MS: how long one database call may take; a flush's deadline follows from it. */
  readonly databaseTimeoutMs: number;
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
  readonly dashboards: { readonly siteTotals: boolean; readonly topPagesRollupPages: number };
  /** Visitors (issue 19): how often the beacon's salt rotates (VISITOR_SALT_ROTATION). */
  readonly visitors: { readonly saltRotation: SaltRotation };
  /** Visits (issue 29): VISITS_ENABLED, and VISIT_TIMEOUT_MINUTES, the longest gap within one visit. */
  readonly visits: { readonly enabled: boolean; readonly timeoutMinutes: number };
  /** Dimensions (issue 20). */
  readonly dimensions: {
    /** DIMENSIONS_ENABLED: count every hit under one value of every dimension. */
    readonly enabled: boolean;
    /** DIMENSION_MAX_VALUES: distinct keys per dimension a document admits (per writing process). */
    readonly maxValues: number;
    /** DIMENSION_VISITORS: dimensions whose values keep visitor sketches in site-total documents. */
    readonly visitors: readonly Dimension[];
    /** COUNTRY_DATABASE: a `.mmdb` file; undefined: the bundled database. */
    readonly countryDatabase: string | undefined;
  };
  /** RETENTION_MINUTES_DAYS and RETENTION_DAYS: a background job drops older detail (issue 30). */
  readonly retention: RetentionSettings;
  readonly idempotency: { readonly windowHours: number; readonly leaseMs: number; readonly waitMs: number };
}
