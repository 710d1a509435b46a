/**
 * The ingest use-cases: validate at the boundary (hits, then their visitors and dimensions: HitEnricher), note
 * activity for preallocation, then group-commit.
 */
import type { EventInputFields } from '../domain/events/HitEvent';
import type { Hit, HitInputFields, HitLimits } from '../domain/Hit';
import { parseHit, parseHitBatch } from '../domain/parseHit';
import { parseHitColumns } from '../domain/parseHitColumns';
import type { HitColumnsRequest } from './HitColumnsRequest';
import type { BeaconContext, HitEnricher } from './HitEnricher';
import { columnsFingerprint, fingerprint, parseIdempotencyKey } from './IdempotencyKey';
import type { KeyedRequests } from './KeyedRequests';
import type { PreallocationPlanner } from './PreallocationPlanner';
import type { VisitorSalts } from './VisitorSalts';

/** Where requests without an idempotency key go: the group committer (INGEST_ACK=database) or the ingest log. */
export interface HitSink {
  /** Resolves once the hits are acknowledged: written to the database, or durable in the ingest log. */
  submit(hits: readonly Hit[], urgent: boolean): Promise<unknown>;
}

export interface HitIngestDeps {
  /** Requests without an idempotency key: the group committer, or the ingest log's windows. */
  readonly unkeyed: HitSink;
  readonly limits: HitLimits;
  readonly clock: () => number;
  /** Exactly-once execution of requests with an idempotency key (issue 9). */
  readonly keyed: KeyedRequests;
  /** Visitors and dimensions of each hit; its secret also keys the fingerprints of requests carrying them. */
  readonly enricher: HitEnricher;
  /** The beacon's salts per period. */
  readonly salts: Pick<VisitorSalts, 'saltFor'>;
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

/** A browser's page view as the beacon route saw it (BeaconContext) and the page it counts for. */
export interface BeaconHit extends BeaconContext {
  readonly site: string;
  /** The page counted: pageUrl without its query, unless the site key keeps queries. */
  readonly page: string;
  /** A custom event (`tally('Signup', …)`); absent: a page view. */
  readonly event?: EventInputFields | undefined;
}

const plainField = (name: string): string => name;

export class HitIngest {
  constructor(private readonly deps: HitIngestDeps) {}

  async recordHit(input: HitInputFields, options: IngestOptions = {}): Promise<Hit> {
    const stamp = (now: number) => {
      const hit = this.deps.enricher.enrich(parseHit(input, { now, limits: this.deps.limits }), input, plainField);
      return { hits: [hit], result: hit };
    };
    return this.run(stamp, () => fingerprint('recordHit', [input], this.deps.enricher.secret), options, false);
  }

  /** All or nothing: one invalid hit rejects the batch before anything is written. */
  async recordHits(inputs: readonly HitInputFields[], options: IngestOptions = {}): Promise<RecordHitsResult> {
    const stamp = (now: number) => {
      const hits = parseHitBatch(inputs, { now, limits: this.deps.limits });
      for (let i = 0; i < hits.length; i++) {
        hits[i] = this.deps.enricher.enrich(hits[i] as Hit, inputs[i] as HitInputFields, (n) => `hits[${i}].${n}`);
      }
      return { hits, result: batchResult(hits) };
    };
    return this.run(stamp, () => fingerprint('recordHits', inputs, this.deps.enricher.secret), options, true);
  }

  /** recordHits for a columnar batch (HitColumnsRequest): the same rules and result, a fraction of the parsing work. */
  async recordHitColumns(columns: HitColumnsRequest, options: IngestOptions = {}): Promise<RecordHitsResult> {
    const stamp = (now: number) => {
      const hits = parseHitColumns(columns, { now, limits: this.deps.limits, path: 'columns' });
      this.deps.enricher.enrichColumns(hits, columns, 'columns.');
      return { hits, result: batchResult(hits) };
    };
    return this.run(stamp, () => columnsFingerprint(columns, this.deps.enricher.secret), options, true);
  }

  /**
   * A browser's page view (POST /api/hit): counted now, with a cookieless visitor under the current period's
   * salt and the dimensions of what the request carried. Never keyed: a beacon is not retried.
   */
  async recordBeacon(beacon: BeaconHit): Promise<Hit> {
    const salt = await this.deps.salts.saltFor(this.deps.clock());
    const stamp = (now: number) => {
      const parsed = parseHit(
        { site: beacon.site, page: beacon.page, ...beacon.event },
        { now, limits: this.deps.limits },
      );
      const hit = this.deps.enricher.beaconHit(parsed, beacon, salt);
      return { hits: [hit], result: hit };
    };
    return this.run(stamp, () => '', {}, false);
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
        // Events are not counted in the documents preallocation creates.
        if (planner)
          for (const hit of stamped.hits) if (hit.event === undefined) planner.noteHit(hit.site, hit.page, now);
      }
      return stamped;
    };
    if (options.idempotencyKey == null) {
      const { hits, result } = noting(this.deps.clock());
      await this.deps.unkeyed.submit(hits, urgent);
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
