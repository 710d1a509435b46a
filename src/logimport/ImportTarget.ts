/** Where an import's batches go: a running tally over GraphQL, or the database through the ingest core. */
import type { HitBatch } from './HitBatch';

export interface ImportTarget {
  /** What the summary says the hits went to (never the API key). */
  readonly description: string;
  /** Resolves with the total the target acknowledged, or throws an ImportTargetError. */
  send(batch: HitBatch): Promise<number>;
  close(): Promise<void>;
}

/**
 * How a failed batch is handled: `retry` (the target may succeed later: network, overload, the same key
 * in flight elsewhere), `batch` (this batch is refused: the rest go on), `abort` (no batch can succeed:
 * bad key, wrong URL, a server without idempotency).
 */
export type FailureKind = 'retry' | 'batch' | 'abort';

export class ImportTargetError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'ImportTargetError';
  }
}
