/** The per-operation limits (README "Security"; each one's environment variable is in its error). */
export interface RequestLimits {
  /** Deepest selection nesting (GRAPHQL_MAX_DEPTH). */
  readonly maxDepth: number;
  /** Aliases per operation, fragments included (GRAPHQL_MAX_ALIASES). */
  readonly maxAliases: number;
  /** Lexical tokens per document (GRAPHQL_MAX_TOKENS). */
  readonly maxTokens: number;
  /** Root fields per operation, after fragments and aliases (GRAPHQL_MAX_ROOT_FIELDS). */
  readonly maxRootFields: number;
  /** Buckets one request may return, summed over every series it asks for (QUERY_MAX_BUCKETS_PER_REQUEST). */
  readonly maxBucketsPerRequest: number;
  /** Hits one request may record over all its fields (INGEST_MAX_BATCH). */
  readonly maxHitsPerRequest: number;
  /** Impressions one request may record over all its fields (IMPRESSIONS_MAX_BATCH). */
  readonly maxImpressionsPerRequest: number;
}
