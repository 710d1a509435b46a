/**
 * Section 4: bytes per page-day. A model from BSON sizes (documents built by the ingest path's own code, so
 * they are the bytes the database is sent) at several traffic densities, for sparse and pre-allocated
 * daily documents (plus their share of the monthly document) and for raw events; and, where the engine
 * reports it, collStats of the query data set.
 */
import { BSON, ObjectId } from 'mongodb';
import type { Document } from 'mongodb';
import { preallocatedDaily } from '../../src/store/dailyStats';
import { preallocatedMonthly } from '../../src/store/monthlyStats';
import { DAY_MS } from '../../src/time/buckets';
import { counterDocuments, upsertedDocument } from './counterDocuments';
import type { QueryResult } from './queries';
import { seededRandom } from '../shared/random';
import { BENCH_SITE, pagePath } from '../shared/traffic';

export interface StorageRow {
  readonly hitsPerPageDay: number;
  readonly sparseBytes: number;
  readonly preallocatedBytes: number;
  readonly rawEventBytes: number;
}

export interface MeasuredStorage {
  readonly pageDays: number;
  readonly hits: number;
  /** collStats size / pageDays; what the engine reports, not BSON on FerretDB. */
  readonly preAggregatedBytesPerPageDay?: number;
  readonly rawBytesPerPageDay?: number;
  readonly rawIndexBytesPerPageDay?: number;
  readonly preAggregatedIndexBytesPerPageDay?: number;
}

export interface StorageResult {
  readonly rows: StorageRow[];
  /** BSON size of one raw event as stored here: {_id, site, page, at}. Umami and Ackee store more fields. */
  readonly rawEventDocumentBytes: number;
  readonly measured?: MeasuredStorage;
}

const DENSITIES = [1, 10, 100, 1_000, 10_000, 100_000];
// 30-day month starting on a Monday (June 2026): a day's share of the monthly document is 1/30 of it.
const DAY = Date.UTC(2026, 5, 15);
const MONTH_DAYS = 30;

function size(doc: Document): number {
  return BSON.calculateObjectSize(doc);
}

export function runStorage(queries: QueryResult | undefined): StorageResult {
  const page = pagePath(0);
  const random = seededRandom(4444);
  const rawEvent = { _id: new ObjectId(), site: BENCH_SITE, page, at: new Date(DAY) };
  const preallocated =
    size(upsertedDocument(preallocatedDaily(BENCH_SITE, page, DAY, 'shardKey'))) +
    size(upsertedDocument(preallocatedMonthly(BENCH_SITE, page, DAY, 'shardKey'))) / MONTH_DAYS;
  const rows = DENSITIES.map((density) => {
    // A page with this many hits on every day of the month, at random minutes.
    const hits = Array.from({ length: density }, () => ({
      site: BENCH_SITE,
      page,
      at: DAY + Math.floor(random() * DAY_MS),
    }));
    const month = Array.from({ length: MONTH_DAYS }, (_, d) => ({
      site: BENCH_SITE,
      page,
      at: DAY - 14 * DAY_MS + d * DAY_MS,
    }));
    const docs = counterDocuments(hits);
    const monthly = counterDocuments(month).monthly[0] as Document;
    return {
      hitsPerPageDay: density,
      sparseBytes: size(docs.daily[0] as Document) + size(monthly) / MONTH_DAYS,
      preallocatedBytes: preallocated,
      rawEventBytes: density * size(rawEvent),
    };
  });
  const result: StorageResult = { rows, rawEventDocumentBytes: size(rawEvent) };
  if (!queries) return result;
  const { raw, daily, monthly } = queries.collStats;
  const perDay = (bytes: number | undefined): number | undefined =>
    bytes === undefined ? undefined : bytes / queries.pageDays;
  return {
    ...result,
    measured: {
      pageDays: queries.pageDays,
      hits: queries.hitsAtLargest,
      ...defined('preAggregatedBytesPerPageDay', perDay(daily && monthly ? daily.size + monthly.size : undefined)),
      ...defined('rawBytesPerPageDay', perDay(raw?.size)),
      ...defined('rawIndexBytesPerPageDay', perDay(raw?.totalIndexSize)),
      ...defined(
        'preAggregatedIndexBytesPerPageDay',
        perDay(daily && monthly ? daily.totalIndexSize + monthly.totalIndexSize : undefined),
      ),
    },
  };
}

function defined<K extends string>(key: K, value: number | undefined): { [P in K]?: number } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: number };
}
