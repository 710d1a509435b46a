/**
 * The raw-event design's read side (what Ackee and Umami do): count events per time bucket at query time,
 * with a $match + $group pipeline. FerretDB 1.x lacks the $group expressions needed ($toLong, $subtract),
 * so the pipeline is probed once on known data; when it errors or answers wrongly the benchmark falls back
 * to fetching the matching events and bucketing them in the client, and the report says so.
 */
import type { Collection, Db, Document } from 'mongodb';

export type RawStrategy = 'pipeline' | 'client-side bucketing';

export interface RawQuery {
  readonly site: string;
  readonly pages: readonly string[];
  readonly from: number;
  readonly to: number;
  readonly unitMs: number;
}

/** Counts per page and bucket start. */
export type RawAnswer = Map<string, Map<number, number>>;

export const RAW_EVENTS_COLLECTION = 'raw.events';

function match(query: RawQuery): Document {
  return {
    site: query.site,
    page: query.pages.length === 1 ? query.pages[0] : { $in: [...query.pages] },
    at: { $gte: new Date(query.from), $lt: new Date(query.to) },
  };
}

export async function rawSeries(collection: Collection, query: RawQuery, strategy: RawStrategy): Promise<RawAnswer> {
  const answer: RawAnswer = new Map(query.pages.map((page) => [page, new Map<number, number>()]));
  if (strategy === 'pipeline') {
    const at = { $toLong: '$at' };
    const rows = await collection
      .aggregate<{ _id: { page: string; t: number }; hits: number }>([
        { $match: match(query) },
        { $group: { _id: { page: '$page', t: { $subtract: [at, { $mod: [at, query.unitMs] }] } }, hits: { $sum: 1 } } },
      ])
      .toArray();
    for (const row of rows) answer.get(row._id.page)?.set(Number(row._id.t), row.hits);
    return answer;
  }
  // Streamed, not collected: at a million stored hits one chart matches a few hundred thousand events.
  const events = collection.find(match(query), { projection: { _id: 0, page: 1, at: 1 } });
  for await (const event of events) {
    const t = (event.at as Date).getTime();
    const bucket = t - (t % query.unitMs);
    const series = answer.get(event.page as string);
    series?.set(bucket, (series.get(bucket) ?? 0) + 1);
  }
  return answer;
}

/** Runs the pipeline on three known events; anything but the right answer means: bucket in the client. */
export async function detectRawStrategy(db: Db): Promise<{ strategy: RawStrategy; reason: string }> {
  const probe = db.collection('raw.probe');
  await probe.drop().catch(() => undefined);
  await probe.insertMany([
    { site: 's', page: '/a', at: new Date(60_000) },
    { site: 's', page: '/a', at: new Date(61_000) },
    { site: 's', page: '/a', at: new Date(130_000) },
  ]);
  try {
    const answer = await rawSeries(
      probe,
      { site: 's', pages: ['/a'], from: 0, to: 200_000, unitMs: 60_000 },
      'pipeline',
    );
    const got = Array.from((answer.get('/a') ?? new Map<number, number>()).entries()).sort((a, b) => a[0] - b[0]);
    if (
      JSON.stringify(got) ===
      JSON.stringify([
        [60_000, 2],
        [120_000, 1],
      ])
    ) {
      return { strategy: 'pipeline', reason: '$match + $group on {page, bucket} answered correctly' };
    }
    return {
      strategy: 'client-side bucketing',
      reason: `the $group pipeline answered ${JSON.stringify(got)} on known data`,
    };
  } catch (error) {
    return {
      strategy: 'client-side bucketing',
      reason: `the $group pipeline failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    await probe.drop().catch(() => undefined);
  }
}
