/** The machine-readable result of one run (written as results.json); everything the report is made from. */
import type { IdempotencyResult } from './idempotency';
import type { IngestResult } from './ingest';
import type { BenchMode } from './options';
import type { QueryResult } from './queries';
import type { SchemaGrowthResult } from './schemaGrowth';
import type { StorageResult } from './storage';

export interface BenchResults {
  readonly formatVersion: 1;
  readonly mode: BenchMode;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly engine: {
    readonly name: 'MongoDB' | 'FerretDB';
    readonly version: string;
    readonly compatibleWith: string;
    readonly label: string;
    readonly description: string;
    readonly embedded: boolean;
  };
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
  /** Sections that failed, with their error; the others still report. */
  readonly failures: Array<{ section: string; error: string }>;
}
