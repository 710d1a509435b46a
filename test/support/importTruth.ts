/**
 * The oracle for import tests: which generated log entries must become hits (decided from what each entry
 * is, not by the importer's code), and a comparison of every page's HOUR and DAY series with a naive count.
 */
import type { LogEntry, LogStyle } from '../../bench/shared/accessLogs';
import type { Hit } from '../../src/domain/Hit';
import { Granularity } from '../../src/time/Granularity';
import { naiveBucketStart, naiveSeries } from './naiveCount';
import { naiveGrid } from './naiveZoneCount';

/** Hits the default filters keep. `common` logs no user agent, so its bots count as views. */
export function expectedHits(entries: readonly LogEntry[], style: LogStyle, site?: string): Hit[] {
  return entries
    .filter((entry) => entry.kind === 'view' || (entry.kind === 'bot' && style === 'common'))
    .map((entry) => ({ site: site ?? entry.site, page: entry.page, at: Math.floor(entry.at / 1000) * 1000, count: 1 }));
}

interface SeriesBody {
  data?: Record<string, { from: string; values: number[] } | null> | null;
  errors?: unknown[];
}

/**
 * Reads the HOUR and DAY series of every (site, page) the hits touch over their whole span
 * (a few requests) and returns the mismatches with the naive count: an empty list means every series is exact.
 */
export async function compareSeries(graphqlUrl: string, hits: readonly Hit[]): Promise<string[]> {
  const pairs = [...new Map(hits.map((h) => [`${h.site}\n${h.page}`, { site: h.site, page: h.page }])).values()];
  const from = new Date(naiveBucketStart(Granularity.DAY, Math.min(...hits.map((h) => h.at)))).toISOString();
  const to = new Date(naiveBucketStart(Granularity.DAY, Math.max(...hits.map((h) => h.at))) + 86_400_000).toISOString();
  // At most 10 pairs (20 aliased series) per request: within the server's alias and token limits.
  const data: NonNullable<SeriesBody['data']> = {};
  for (let first = 0; first < pairs.length; first += 10) {
    const fields = pairs
      .slice(first, first + 10)
      .flatMap(({ site, page }, offset) =>
        (['HOUR', 'DAY'] as const).map(
          (g) =>
            `s${first + offset}_${g}: pageStats(site: ${JSON.stringify(site)}, page: ${JSON.stringify(page)}, ` +
            `range: { from: "${from}", to: "${to}" }, granularity: ${g}) { from values }`,
        ),
      );
    const response = await fetch(graphqlUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `query Series { ${fields.join('\n')} }` }),
    });
    const body = (await response.json()) as SeriesBody;
    if (body.errors) return [`query failed: ${JSON.stringify(body.errors)}`];
    Object.assign(data, body.data);
  }
  const body = { data };
  const mismatches: string[] = [];
  pairs.forEach(({ site, page }, i) => {
    for (const g of ['HOUR', 'DAY'] as const) {
      const series = body.data?.[`s${i}_${g}`];
      if (!series) {
        mismatches.push(`${site}${page} ${g}: no series`);
        continue;
      }
      // The buckets the request means, found without the server's answer: its first must be the series' start.
      const { starts } = naiveGrid(Granularity[g], 'UTC', Date.parse(from), Date.parse(to));
      if (Date.parse(series.from) !== starts[0] || series.values.length !== starts.length) {
        mismatches.push(
          `${site}${page} ${g}: expected ${starts.length} buckets from ${new Date(starts[0] as number).toISOString()}, got ${series.values.length} from ${series.from}`,
        );
        continue;
      }
      const expected = naiveSeries(hits, site, page, Granularity[g], starts);
      if (JSON.stringify(expected) !== JSON.stringify(series.values)) {
        mismatches.push(
          `${site}${page} ${g}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(series.values)}`,
        );
      }
    }
  });
  return mismatches;
}
