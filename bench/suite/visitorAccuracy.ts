/**
 * Section 10: how close the visitor estimates come to the true count. In process: streams of distinct visitors into
 * the sketch at each level's precision (bench/probes/sketchAccuracy.ts's method), read at cardinalities from 1 to
 * 1,000,000. Through the server: known visitors sent as hits with `visitor` ids (keyed-hashed by the server, as in
 * production) to one page per cardinality over three days, a quarter of them returning the next day, then read back
 * as `pageStats` and `siteStats` visitors of the three days and of each day.
 */
import { relativeStandardError } from '../../src/domain/visitors/relativeStandardError';
import { VISITOR_PRECISION } from '../../src/domain/visitors/VisitorPrecision';
import { estimateErrors } from '../shared/estimateErrors';
import type { EstimateErrors } from '../shared/estimateErrors';
import { GraphqlClient } from '../shared/GraphqlClient';
import type { ServerHandle } from '../shared/serverProcess';
import { streamErrors, wordSketch } from '../shared/sketchStreams';
import type { AudienceSizes } from './sizes';

const DAY_MS = 86_400_000;
const SITE = 'accuracy.example';
const SERVER_DAYS = 3;
const BATCH = 1000;
/** One in this many visitors returns the day after their first visit (when that day is in the range). */
const RETURN_EVERY = 4;

const LEVELS = [
  { level: 'page', precision: VISITOR_PRECISION.pageDay },
  { level: 'site', precision: VISITOR_PRECISION.siteDay },
  { level: 'minute', precision: VISITOR_PRECISION.minute },
] as const;

export interface SketchAccuracyRow {
  readonly level: (typeof LEVELS)[number]['level'];
  readonly precision: number;
  readonly standardError: number;
  readonly visitors: number;
  readonly streams: number;
  readonly errors: EstimateErrors;
}

export interface ServerAccuracyRow {
  readonly visitors: number;
  readonly page: string;
  /** Over the three days, and per day: what the server answered and the truth. */
  readonly range: { readonly estimate: number | null; readonly truth: number };
  readonly days: ReadonlyArray<{ readonly estimate: number | null; readonly truth: number }>;
}

export interface VisitorAccuracyResult {
  readonly engine: string;
  readonly sketches: SketchAccuracyRow[];
  readonly server: ServerAccuracyRow[];
  /** The site's totals: every page's visitors (distinct ids across pages). */
  readonly site: ServerAccuracyRow;
}

export interface VisitorAccuracyDeps {
  readonly engine: string;
  readonly sizes: AudienceSizes;
  readonly startServer: () => Promise<ServerHandle>;
  readonly log: (line: string) => void;
}

export async function runVisitorAccuracy(deps: VisitorAccuracyDeps): Promise<VisitorAccuracyResult> {
  const sketches = sketchAccuracy(deps.sizes);
  for (const row of sketches.filter((r) => r.level === 'page')) {
    deps.log(
      `  sketch p=${row.precision}, ${row.visitors.toLocaleString('en-US')} visitors: median error ` +
        `${(100 * row.errors.medianRelativeError).toFixed(2)} %, worst ${(100 * row.errors.maxRelativeError).toFixed(2)} %`,
    );
  }
  const server = await deps.startServer();
  const client = new GraphqlClient(server.url, 2);
  try {
    const { rows, site } = await serverAccuracy(client, deps.sizes.serverCardinalities);
    for (const row of [...rows, site]) {
      deps.log(`  through the server, ${row.page}: ${row.range.estimate} for ${row.range.truth} visitors over 3 days`);
    }
    return { engine: deps.engine, sketches, server: rows, site };
  } finally {
    client.close();
    await server.stop();
  }
}

function sketchAccuracy(sizes: AudienceSizes): SketchAccuracyRow[] {
  const small = [1, 10, 100, 1_000].filter((n) => n <= sizes.accuracyLargest);
  const large = [10_000, 100_000, 1_000_000].filter((n) => n <= sizes.accuracyLargest);
  const factories = LEVELS.map(({ level, precision }) => wordSketch(level, precision));
  const rows: SketchAccuracyRow[] = [];
  const runs: Array<[number[], number, number]> = [
    [small, sizes.accuracySmallStreams, 11_000_000],
    [large, sizes.accuracyStreams, 12_000_000],
  ];
  for (const [cardinalities, streams, seedBase] of runs) {
    if (cardinalities.length === 0) continue;
    const errors = streamErrors(factories, cardinalities, streams, seedBase);
    LEVELS.forEach(({ level, precision }, i) => {
      cardinalities.forEach((visitors, j) => {
        rows.push({
          level,
          precision,
          standardError: relativeStandardError(precision),
          visitors,
          streams,
          errors: estimateErrors(
            (errors[i]?.[j] ?? []).map((delta) => ({ estimate: visitors + delta, truth: visitors })),
          ),
        });
      });
    });
  }
  return rows;
}

/** Visitor i of page n first visits on day i mod 3; every RETURN_EVERY-th comes back the next day. */
function visitsOf(n: number): Array<{ visitor: string; day: number }> {
  const visits: Array<{ visitor: string; day: number }> = [];
  for (let i = 0; i < n; i++) {
    const visitor = `accuracy-${n}-${i}`;
    const day = i % SERVER_DAYS;
    visits.push({ visitor, day });
    if (i % RETURN_EVERY === 0 && day + 1 < SERVER_DAYS) visits.push({ visitor, day: day + 1 });
  }
  return visits;
}

async function serverAccuracy(
  client: GraphqlClient,
  cardinalities: readonly number[],
): Promise<{ rows: ServerAccuracyRow[]; site: ServerAccuracyRow }> {
  const now = Date.now();
  const today = now - (now % DAY_MS);
  const first = today - SERVER_DAYS * DAY_MS;
  const dayTruth = (visits: Array<{ visitor: string; day: number }>): number[] =>
    Array.from(
      { length: SERVER_DAYS },
      (_, day) => new Set(visits.filter((v) => v.day === day).map((v) => v.visitor)).size,
    );
  const siteDays = Array.from({ length: SERVER_DAYS }, () => 0);
  const truths = new Map<string, { range: number; days: number[] }>();
  for (const n of cardinalities) {
    const page = `/visitors/${n}`;
    const visits = visitsOf(n);
    const days = dayTruth(visits);
    days.forEach((count, day) => (siteDays[day] = (siteDays[day] ?? 0) + count));
    truths.set(page, { range: n, days });
    for (let from = 0; from < visits.length; from += BATCH) {
      const slice = visits.slice(from, from + BATCH);
      const columns = {
        sites: [SITE],
        pages: [page],
        pageIndex: slice.map(() => 0),
        // Spread over each day, a second apart, so every hit is its own minute's and hour's as traffic would be.
        atMs: slice.map((visit, k) => first + visit.day * DAY_MS + (((from + k) * 1000) % DAY_MS)),
        visitors: slice.map((visit) => visit.visitor),
        visitorIndex: slice.map((_, k) => k),
      };
      await client.mustRequest(
        `mutation Columns($columns: HitColumnsInput!) { recordHitColumns(columns: $columns) { accepted } }`,
        { columns },
      );
    }
  }
  const fields = 'visitors points { visitors }';
  const series = cardinalities.map(
    (n, i) =>
      `p${i}: pageStats(site: "${SITE}", page: "/visitors/${n}", range: { from: $from, to: $to }, granularity: DAY) { ${fields} }`,
  );
  const query = `query Accuracy($from: DateTime!, $to: DateTime!) {\n  ${series.join('\n  ')}\n  site: siteStats(site: "${SITE}", range: { from: $from, to: $to }, granularity: DAY) { ${fields} }\n}`;
  type Series = { visitors: number | null; points: Array<{ visitors: number | null }> };
  // Every mutation above returned once the database acknowledged its write: the reads see all of them.
  const response = await client.mustRequest<Record<string, Series>>(query, {
    from: new Date(first).toISOString(),
    to: new Date(today).toISOString(),
  });
  const row = (page: string, answer: Series | undefined, truth: { range: number; days: number[] }) => ({
    visitors: truth.range,
    page,
    range: { estimate: answer?.visitors ?? null, truth: truth.range },
    days: truth.days.map((count, day) => ({ estimate: answer?.points[day]?.visitors ?? null, truth: count })),
  });
  const rows = cardinalities.map((n, i) =>
    row(`/visitors/${n}`, response.data?.[`p${i}`], truths.get(`/visitors/${n}`) as { range: number; days: number[] }),
  );
  const siteTotal = cardinalities.reduce((sum, n) => sum + n, 0);
  return { rows, site: row('(site totals)', response.data?.site, { range: siteTotal, days: siteDays }) };
}
