/** The ingest use-cases: validate at the boundary, note activity for preallocation, then group-commit. */
import type { Hit, HitInputFields, HitLimits } from '../domain/Hit';
import type { GroupCommitter } from './GroupCommitter';
import type { HitColumns } from '../domain/HitColumns';
import { columnsFingerprint, fingerprint, parseIdempotencyKey } from './IdempotencyKey';
import type { KeyedRequests } from './KeyedRequests';
import { parseHit, parseHitBatch } from '../domain/parseHit';
import { parseHitColumns } from '../domain/parseHitColumns';
import type { PreallocationPlanner } from './PreallocationPlanner';

export interface HitIngestDeps {
  readonly committer: GroupCommitter;
  readonly limits: HitLimits;
  readonly clock: () => number;
  /** Exactly-once execution of requests with an idempotency key (issue 9). */
  readonly keyed: KeyedRequests;
  /** Absent when preallocation is switched off. */
  readonly planner?: PreallocationPlanner | undefined;
  /** The next hour's second-level minutes; absent when switched off. */
  readonly secondsPlanner?: PreallocationPlanner | undefined;
}

export interface IngestOptions {
  /**
   * Counts the request exactly once however often it is sent (within the idempotency window): a retry gets the
   * original result, the same key with other hits IDEMPOTENCY_KEY_REUSED.
   */
  readonly idempotencyKey?: string | null | undefined;
  /** Separates key spaces (e.g. per API key); the same key in two scopes is two keys. */
  readonly idempotencyScope?: string | undefined;
}

export interface RecordHitsResult {
  readonly accepted: number;
  readonly total: number;
}

export class HitIngest {
  constructor(private readonly deps: HitIngestDeps) {}

  async recordHit(input: HitInputFields, options: IngestOptions = {}): Promise<Hit> {
    const stamp = (now: number) => {
      const hit = parseHit(input, { now, limits: this.deps.limits });
      return { hits: [hit], result: hit };
    };
    return this.run(stamp, () => fingerprint('recordHit', [input]), options, false);
  }

  /** All or nothing: one invalid hit rejects the batch before anything is written. */
  async recordHits(inputs: readonly HitInputFields[], options: IngestOptions = {}): Promise<RecordHitsResult> {
    const stamp = (now: number) => {
      const hits = parseHitBatch(inputs, { now, limits: this.deps.limits });
      return { hits, result: batchResult(hits) };
    };
    return this.run(stamp, () => fingerprint('recordHits', inputs), options, true);
  }

  /** recordHits for a columnar batch (HitColumns): the same rules and result, a fraction of the parsing work. */
  async recordHitColumns(columns: HitColumns, options: IngestOptions = {}): Promise<RecordHitsResult> {
    const stamp = (now: number) => {
      const hits = parseHitColumns(columns, { now, limits: this.deps.limits, path: 'columns' });
      return { hits, result: batchResult(hits) };
    };
    return this.run(stamp, () => columnsFingerprint(columns), options, true);
  }

  private async run<T>(
    stamp: (now: number) => { readonly hits: readonly Hit[]; readonly result: T },
    fingerprintOf: () => string,
    options: IngestOptions,
    urgent: boolean,
  ): Promise<T> {
    const noting = (now: number) => {
      const stamped = stamp(now);
      for (const planner of [this.deps.planner, this.deps.secondsPlanner]) {
        if (planner) for (const hit of stamped.hits) planner.noteHit(hit.site, hit.page, now);
      }
      return stamped;
    };
    if (options.idempotencyKey == null) {
      const { hits, result } = noting(this.deps.clock());
      await this.deps.committer.submit(hits, urgent);
      return result;
    }
    const key = parseIdempotencyKey(options.idempotencyKey, options.idempotencyScope);
    return this.deps.keyed.run(key, fingerprintOf(), noting, urgent);
  }
}

function batchResult(hits: readonly Hit[]): RecordHitsResult {
  let total = 0;
  for (const hit of hits) total += hit.count;
  return { accepted: hits.length, total };
}
