/**
 * The batch function behind the series DataLoader: plans every requested series, sends one find per source
 * (daily-minute, daily-hourly, monthly, seconds) for the whole batch, and fills each series from the documents.
 * Results come back in key order; a failed source fails only the series that needed it.
 */
import type { DailyStatsDocument } from '../store/dailyStats';
import type { MonthlyStatsDocument } from '../store/monthlyStats';
import type { SecondStatsDocument } from '../store/secondStats';
import type { DocumentLookup } from './DocumentLookup';
import { fillSeries } from './fillSeries';
import { planSeries } from './planSeries';
import type { SeriesPlan, SeriesSource } from './planSeries';
import type { Series, SeriesRequest } from './Series';
import type { SeriesReader } from './SeriesReader';

type Doc = DailyStatsDocument | MonthlyStatsDocument | SecondStatsDocument;

export async function loadSeries(
  reader: SeriesReader,
  requests: readonly SeriesRequest[],
): Promise<Array<Series | Error>> {
  const plans = requests.map((request) => planSeries(request));
  const sources = new Set(plans.map((plan) => plan.source));
  const fetched = new Map<SeriesSource, Promise<Doc[]>>();
  for (const source of sources) {
    const ranges = plans.filter((plan) => plan.source === source).map((plan) => plan.range);
    fetched.set(source, fetchSource(reader, source, ranges, plans));
  }
  const indexes = new Map<SeriesSource, Map<string, Doc> | Error>();
  await Promise.all(
    [...fetched].map(async ([source, promise]) => {
      try {
        indexes.set(source, indexByPageAndDate(await promise));
      } catch (error) {
        indexes.set(source, error instanceof Error ? error : new Error(String(error)));
      }
    }),
  );
  return requests.map((request, i) => {
    const plan = plans[i] as SeriesPlan;
    const index = indexes.get(plan.source) as Map<string, Doc> | Error;
    if (index instanceof Error) return index;
    const key = (date: number): string => documentKey(request.site, request.page, date);
    const lookup: DocumentLookup = {
      daily: (day) => index.get(key(day)) as DailyStatsDocument | undefined,
      monthly: (month) => index.get(key(month)) as MonthlyStatsDocument | undefined,
      seconds: (minute) => index.get(key(minute)) as SecondStatsDocument | undefined,
    };
    return fillSeries(request, plan, lookup);
  });
}

function fetchSource(
  reader: SeriesReader,
  source: SeriesSource,
  ranges: SeriesPlan['range'][],
  plans: readonly SeriesPlan[],
): Promise<Doc[]> {
  switch (source) {
    case 'monthly':
      return reader.findMonthly(ranges);
    case 'seconds':
      return reader.findSeconds(ranges);
    case 'hourly':
      return reader.findDaily(ranges, { kind: 'hourly' });
    case 'minute': {
      // One projection for the batch: the union of the hours any minute series touches.
      const hours = new Set<number>();
      for (const plan of plans) if (plan.source === 'minute') plan.hours.forEach((h) => hours.add(h));
      return reader.findDaily(ranges, { kind: 'minute', hours });
    }
  }
}

function indexByPageAndDate(docs: readonly Doc[]): Map<string, Doc> {
  return new Map(
    docs.map((doc) => [documentKey(doc.metadata.site, doc.metadata.page, doc.metadata.date.getTime()), doc]),
  );
}

function documentKey(site: string, page: string, date: number): string {
  return `${site}\u0000${page}\u0000${date}`;
}
