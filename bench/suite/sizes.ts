/**
 * The sizes of each section per benchmark mode. `smoke` proves the pipeline end to end in seconds; `quick` stores up
 * to 100,000 hits and fits in ten minutes on two cores against FerretDB; `full` stores up to 1,000,000 and fits in
 * an hour. Query data sizes (and the visitor and dimension sections' data) are the same on every engine (the comparison at a million hits is the point);
 * FerretDB gets fewer repetitions per cell, because it scans whole tables.
 */
import type { BenchMode } from './BenchOptions';

export interface SchemaGrowthSizes {
  readonly days: number;
  /** One write every `minuteStride` simulated minutes (1 = every minute, as in the seed). */
  readonly minuteStride: number;
  readonly hitsPerMinute: number;
  readonly measures: number;
}

export interface IngestSizes {
  readonly pages: number;
  readonly durationMs: number;
  readonly maxHits: number;
}

export interface QuerySizes {
  readonly pages: number;
  /** Raw-event counts, ascending: the data sizes at which every query is timed. */
  readonly dataSizes: readonly number[];
  readonly maxIterations: number;
  readonly minIterations: number;
  readonly budgetMs: number;
}

/** Sections 7–10: visitors and dimensions (issues 19, 20). */
export interface AudienceSizes {
  /** Ingest: alternating rounds, and batches of 1,000 hits each variant sends per round. */
  readonly ingestRounds: number;
  readonly batchesPerRound: number;
  /** Storage: visitors on one page-day. */
  readonly storageVisitors: readonly number[];
  /** Storage: distinct referrer hosts in one site-day. */
  readonly storageHosts: readonly number[];
  /** Storage: hits of one site-day, with and without dimensions. */
  readonly storageSiteDayHits: readonly number[];
  /** Queries: hits stored per site (two sites, 90 days), on this many pages; rounds of queries of each kind. */
  readonly queryHits: number;
  readonly queryPages: number;
  readonly queryRounds: number;
  readonly queriesPerRound: number;
  /** Accuracy in process: streams to the largest cardinality, and streams to 1,000. */
  readonly accuracyLargest: number;
  readonly accuracyStreams: number;
  readonly accuracySmallStreams: number;
  /** Accuracy through the server: visitors of one page each (sent as hits, read back). */
  readonly serverCardinalities: readonly number[];
}

/** Section 11: tally beside GoatCounter (issue 27); `--peer-hits N` overrides the hits. */
export interface PeerSizes {
  /** Hits each system gets per traffic shape (live, backfill). */
  readonly hits: number;
  /** Rounds of the equivalent queries (one of each per round). */
  readonly queryRounds: number;
}

export interface ModeSizes {
  readonly schemaGrowth: SchemaGrowthSizes;
  readonly ingest: IngestSizes;
  readonly queries: QuerySizes;
  readonly audience: AudienceSizes;
  readonly peer: PeerSizes;
}

export function sizesFor(mode: BenchMode, engine: 'MongoDB' | 'FerretDB'): ModeSizes {
  const slow = engine === 'FerretDB';
  switch (mode) {
    case 'smoke':
      return {
        schemaGrowth: { days: 1, minuteStride: 60, hitsPerMinute: 1, measures: 1 },
        ingest: { pages: 5, durationMs: 300, maxHits: 300 },
        queries: { pages: 20, dataSizes: [100, 1_000], maxIterations: 2, minIterations: 1, budgetMs: 300 },
        audience: {
          ingestRounds: 2,
          batchesPerRound: 1,
          storageVisitors: [10, 1_000],
          storageHosts: [10, 1_000],
          storageSiteDayHits: [1_000],
          queryHits: 2_000,
          queryPages: 20,
          queryRounds: 1,
          queriesPerRound: 1,
          accuracyLargest: 10_000,
          accuracyStreams: 1,
          accuracySmallStreams: 10,
          serverCardinalities: [10, 100],
        },
        peer: { hits: 2_000, queryRounds: 3 },
      };
    case 'quick':
      return {
        schemaGrowth: { days: 1, minuteStride: slow ? 5 : 1, hitsPerMinute: 1, measures: slow ? 1 : 4 },
        ingest: { pages: slow ? 20 : 50, durationMs: slow ? 3_000 : 8_000, maxHits: slow ? 20_000 : 200_000 },
        queries: {
          pages: 50,
          dataSizes: [1_000, 10_000, 100_000],
          maxIterations: slow ? 10 : 50,
          minIterations: 3,
          budgetMs: slow ? 1_500 : 3_000,
        },
        audience: {
          ingestRounds: 4,
          batchesPerRound: slow ? 3 : 10,
          storageVisitors: [10, 1_000, 1_000_000],
          storageHosts: [10, 1_000, 100_000],
          storageSiteDayHits: [10_000, 100_000],
          queryHits: 100_000,
          queryPages: 50,
          queryRounds: 3,
          queriesPerRound: 2,
          accuracyLargest: 1_000_000,
          accuracyStreams: 8,
          accuracySmallStreams: 200,
          serverCardinalities: [10, 100, 1_000, 10_000],
        },
        peer: { hits: 10_000, queryRounds: 10 },
      };
    case 'full':
      return {
        schemaGrowth: { days: 2, minuteStride: 1, hitsPerMinute: slow ? 1 : 5, measures: slow ? 1 : 10 },
        ingest: { pages: 500, durationMs: slow ? 15_000 : 30_000, maxHits: 1_000_000 },
        queries: {
          pages: 200,
          dataSizes: [1_000, 10_000, 100_000, 1_000_000],
          // On FerretDB a raw-event query at 1,000,000 hits scans the table (about 20 s): three samples each.
          maxIterations: slow ? 20 : 200,
          minIterations: slow ? 3 : 5,
          budgetMs: slow ? 6_000 : 10_000,
        },
        audience: {
          ingestRounds: 6,
          batchesPerRound: slow ? 8 : 20,
          storageVisitors: [10, 1_000, 1_000_000],
          storageHosts: [10, 1_000, 100_000],
          storageSiteDayHits: [10_000, 100_000],
          // The figure: a 30-day breakdown at 1,000,000 stored hits.
          queryHits: 1_000_000,
          queryPages: 200,
          queryRounds: 4,
          queriesPerRound: 2,
          accuracyLargest: 1_000_000,
          accuracyStreams: 20,
          accuracySmallStreams: 1_000,
          serverCardinalities: [10, 100, 1_000, 10_000, 100_000],
        },
        // The figures: 100,000 hits per shape.
        peer: { hits: 100_000, queryRounds: 20 },
      };
  }
}
