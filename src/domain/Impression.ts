/** One validated impression: everything downstream of parseImpression trusts these fields. */
export interface Impression {
  readonly userId: string;
  readonly itemId: string;
  /** How many times the user saw the item: a positive integer. */
  readonly count: number;
}

/** An impression as a client sends it, before validation. */
export interface ImpressionInputFields {
  readonly userId: string;
  readonly itemId: string;
  readonly count?: number | null | undefined;
}

export interface ImpressionLimits {
  /** Largest `recordImpressions` batch accepted. */
  readonly maxBatchSize: number;
  /** Largest `count` of one ImpressionInput. */
  readonly maxCount: number;
}
