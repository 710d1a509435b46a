/**
 * The batch behind the series DataLoader: plans every requested series, sends one find per source
 * (monthly, daily-hourly, daily-minute, seconds) for the whole batch, and fills each series from the documents.
 * Results come back in key order; a failed source fails only the series that needed it.
 */
import type { DailyStatsDocument } from '../store/dailyStats';
import type { MonthlyStatsDocument } from '../store/monthlyStats';
import type { SecondStatsDocument } from '../store/secondStats';
import type { SeriesDocumentRange } from '../store/SeriesDocumentRange';
import type { DocumentLookup } from './DocumentLookup';
import { fillSeries } from './fillSeries';
import { planSeries } from './planSeries';
import type { SeriesPlan, SeriesSource } from './planSeries';
import type { Series, SeriesRequest } from './Series';
import type { SeriesReader } from './SeriesReader';

type Doc = DailyStatsDocument | MonthlyStatsDocument | SecondStatsDocument;
/** Documents by site and page (pageKey), then by the start of their period. */
type Index = Map<string, Map<number, Doc>>;

export async function loadSeries(
  reader: SeriesReader,
  requests: readonly SeriesRequest[],
): Promise<Array<Series | Error>> {
  const plans = requests.map((request) => planSeries(request));
  const indexes = await fetchSources(reader, plans);
  return requests.map((request, i) => {
    const plan = plans[i] as SeriesPlan;
    for (const read of plan.reads) {
      const index = indexes.get(read.source);
      if (index instanceof Error) return index;
    }
    // Looked up once per bucket: the page's key is built once, dates stay numbers.
    const key = pageKey(request.site, request.page);
    const find = (source: SeriesSource, date: number): Doc | undefined => {
      const index = indexes.get(source);
      return index instanceof Map ? index.get(key)?.get(date) : undefined;
    };
    const lookup: DocumentLookup = {
      daily: (day) => find('hourly', day) as DailyStatsDocument | undefined,
      minutes: (day) => find('minute', day) as DailyStatsDocument | undefined,
      monthly: (month) => find('monthly', month) as MonthlyStatsDocument | undefined,
      seconds: (minute) => find('seconds', minute) as SecondStatsDocument | undefined,
    };
    return fillSeries(request, plan, lookup);
  });
}

/** One find per source the plans need, all in parallel; a source that fails maps to its Error. */
async function fetchSources(
  reader: SeriesReader,
  plans: readonly SeriesPlan[],
): Promise<Map<SeriesSource, Index | Error>> {
  const ranges = new Map<SeriesSource, SeriesDocumentRange[]>();
  const hours = new Set<number>();
  for (const plan of plans) {
    for (const read of plan.reads) {
      const list = ranges.get(read.source) ?? [];
      list.push(...read.ranges);
      ranges.set(read.source, list);
    }
    plan.hours.forEach((h) => hours.add(h));
  }
  const indexes = new Map<SeriesSource, Index | Error>();
  await Promise.all(
    [...ranges].map(async ([source, list]) => {
      try {
        indexes.set(source, indexByPageAndDate(await fetchSource(reader, source, list, hours)));
      } catch (error) {
        indexes.set(source, error instanceof Error ? error : new Error(String(error)));
      }
    }),
  );
  return indexes;
}

function fetchSource(
  reader: SeriesReader,
  source: SeriesSource,
  ranges: SeriesDocumentRange[],
  hours: ReadonlySet<number>,
): Promise<Doc[]> {
  switch (source) {
    case 'monthly':
      return reader.findMonthly(ranges);
    case 'seconds':
      return reader.findSeconds(ranges);
    case 'hourly':
      return reader.findDaily(ranges, { kind: 'hourly' });
    case 'minute':
      // One projection for the batch: the union of the hours any series needs minutes of.
      return reader.findDaily(ranges, { kind: 'minute', hours });
  }
}

function indexByPageAndDate(docs: readonly Doc[]): Index {
  const index: Index = new Map();
  for (const doc of docs) {
    const key = pageKey(doc.metadata.site, doc.metadata.page);
    let byDate = index.get(key);
    if (byDate === undefined) index.set(key, (byDate = new Map()));
    byDate.set(doc.metadata.date.getTime(), doc);
  }
  return index;
}

function pageKey(site: string, page: string): string {
  return `${site}\u0000${page}`;
}
