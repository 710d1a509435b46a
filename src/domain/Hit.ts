/** One validated hit: everything downstream of parseHit trusts these fields. */
export interface Hit {
  readonly site: string;
  readonly page: string;
  /** Epoch milliseconds, UTC. */
  readonly at: number;
  readonly count: number;
}

/** A hit as a client sends it, before validation. */
export interface HitInputFields {
  readonly site: string;
  readonly page: string;
  readonly at?: Date | null | undefined;
  readonly count?: number | null | undefined;
}

export interface HitLimits {
  readonly maxCount: number;
  readonly maxClockSkewMs: number;
  readonly maxBatchSize: number;
}
