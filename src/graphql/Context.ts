/** Per-request GraphQL context: shared services plus a fresh set of DataLoaders (never module-level). */
import type DataLoader from 'dataloader';
import { createSeriesLoader } from '../query/createSeriesLoader';
import type { Series, SeriesRequest } from '../query/Series';
import type { Services } from './Services';

export interface Loaders {
  readonly series: DataLoader<SeriesRequest, Series, string>;
}

export interface Context {
  readonly services: Services;
  readonly loaders: Loaders;
}

export function createContext(services: Services): Context {
  return { services, loaders: { series: createSeriesLoader(services.seriesReader) } };
}
