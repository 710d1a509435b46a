/** The use-cases resolvers call; built once per process and shared by every request. */
import type { HitIngest } from '../ingest/HitIngest';
import type { BreakdownQuery } from '../query/BreakdownQuery';
import type { EventDocumentReader } from '../query/events/EventLoader';
import type { EventQueries } from '../query/events/EventQueries';
import type { ImpressionIngest } from '../ingest/ImpressionIngest';
import type { ImpressionQueries } from '../query/ImpressionQueries';
import type { LiveSeriesHub } from '../query/LiveSeriesHub';
import type { SeriesLimits } from '../query/parseSeriesRequest';
import type { SeriesReader } from '../query/SeriesReader';
import type { TopPagesQuery } from '../query/TopPagesQuery';
import type { EngineInfo } from '../store/EngineInfo';
import type { CounterStore } from '../store/CounterStore';
import type { Deletions } from '../store/Deletions';

export interface Services {
  readonly version: string;
  readonly engine: EngineInfo;
  readonly databaseName: string;
  readonly ingest: HitIngest;
  readonly counters: CounterStore;
  readonly seriesReader: SeriesReader;
  readonly seriesLimits: SeriesLimits;
  /** The server clock (resolvers pass `clock()` to the pure request parsers). */
  readonly clock: () => number;
  /** Live series for subscriptions, polled from the database. */
  readonly live: LiveSeriesHub;
  readonly impressions: ImpressionIngest;
  readonly impressionQueries: ImpressionQueries;
  /** A site's pages ranked by hits (issue 11). */
  readonly topPages: TopPagesQuery;
  /** A dimension's values ranked by hits (issue 20). */
  readonly breakdown: BreakdownQuery;
  /** Events, properties and conversions (issue 28). */
  readonly events: EventQueries;
  /** Where the request's EventLoader reads event documents. */
  readonly eventStore: EventDocumentReader;
  /** Deletions of sites and pages (issue 30): requests recorded here, carried out by a background job. */
  readonly deletions: Deletions;
}
