/** The use-cases resolvers call; built once per process and shared by every request. */
import type { HitIngest } from '../ingest/HitIngest';
import type { SeriesLimits } from '../query/parseSeriesRequest';
import type { SeriesReader } from '../query/SeriesReader';
import type { EngineInfo } from '../store/EngineInfo';
import type { CounterStore } from '../store/CounterStore';

export interface Services {
  readonly version: string;
  readonly engine: EngineInfo;
  readonly databaseName: string;
  readonly ingest: HitIngest;
  readonly counters: CounterStore;
  readonly seriesReader: SeriesReader;
  readonly seriesLimits: SeriesLimits;
}
