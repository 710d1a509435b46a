/** The machine-readable result of one run (written as results.json); everything the report is made from. */
import type { AudienceIngestResult } from './audienceIngest';
import type { AudienceQueryResult } from './audienceQueries';
import type { AudienceStorageResult } from './audienceStorage';
import type { IdempotencyResult } from './idempotency';
import type { IngestResult } from './ingest';
import type { PeerResult } from './peer';
import type { FerretdbBuild } from '../shared/ferretdbBuild';
import type { BenchMode } from './BenchOptions';
import type { QueryResult } from './queries';
import type { SchemaGrowthResult } from './schemaGrowth';
import type { StorageResult } from './storage';
import type { VisitorAccuracyResult } from './visitorAccuracy';

export interface EngineLabel {
  readonly name: 'MongoDB' | 'FerretDB';
  readonly version: string;
  readonly compatibleWith: string;
  /** FerretDB only: stock release or our patched build, told apart by its query plans. */
  readonly build?: FerretdbBuild;
  /** Printed next to every figure, e.g. "FerretDB 1.24.2 patched". */
  readonly label: string;
  readonly description: string;
  readonly embedded: boolean;
}

export interface BenchResults {
  readonly formatVersion: 2;
  readonly mode: BenchMode;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly engine: EngineLabel;
  /** The second engine the ingest section ran on, side by side (`--compare-stock`). */
  readonly comparisonEngine?: EngineLabel;
  readonly machine: {
    readonly cpus: number;
    readonly cpuModel: string;
    readonly node: string;
    readonly platform: string;
  };
  readonly server: 'child' | 'in-process';
  readonly command: string;
  readonly schemaGrowth?: SchemaGrowthResult;
  readonly ingest?: IngestResult;
  readonly queries?: QueryResult;
  readonly storage?: StorageResult;
  readonly idempotency?: IdempotencyResult;
  /** Sections 7–10: visitors (issue 19) and dimensions (issue 20). */
  readonly audienceIngest?: AudienceIngestResult;
  readonly audienceStorage?: AudienceStorageResult;
  readonly audienceQueries?: AudienceQueryResult;
  readonly visitorAccuracy?: VisitorAccuracyResult;
  /** Section 11: tally beside GoatCounter on the same traffic (issue 27). */
  readonly peer?: PeerResult;
  /** Sections that failed, with their error; the others still report. */
  readonly failures: Array<{ section: string; error: string }>;
}
