/** Section 11 of docs/benchmarks.md: tally beside GoatCounter on the same traffic, with issue 27's targets judged. */
import type { BenchResults } from '../suite/BenchResults';
import type { PeerRun, PeerSystemKey } from '../suite/peer';
import type { PeerQueryKind } from '../peer/peerQueries';
import type { PeerShapeKey } from '../peer/peerTraffic';
import { REFERRER_MIX } from '../shared/audienceTraffic';
import { fmt, ratio } from '../shared/stats';
import { table } from './markdownTable';

const MIB = 1_048_576;

/** Issue 27's targets on this traffic: tally's figure over GoatCounter's, at most (`max`) or at least (`min`). */
const TARGETS: ReadonlyArray<{
  readonly label: string;
  readonly shapes: readonly PeerShapeKey[];
  readonly figure: (run: PeerRun | undefined) => number | undefined;
  readonly bound: { readonly max: number } | { readonly min: number };
}> = [
  { label: 'CPU per hit, all processes', shapes: ['live'], figure: (r) => r?.cpuUsPerHit, bound: { max: 1 } },
  { label: 'hits/s until every hit is counted', shapes: ['live'], figure: (r) => r?.hitsPerSecond, bound: { min: 1 } },
  { label: 'CPU per hit, all processes', shapes: ['backfill'], figure: (r) => r?.cpuUsPerHit, bound: { max: 3 } },
  // Both systems store the same hits, so their disk per stored hit compares as their disk: after a clean stop, what
  // each keeps (both are SQLite in WAL mode, whose log is transient); while running, beside it.
  {
    label: 'disk per stored hit (after a clean stop)',
    shapes: ['live', 'backfill'],
    figure: (r) => r?.storedBytes,
    bound: { max: 1.5 },
  },
  {
    label: 'disk per stored hit (running, write-ahead logs included)',
    shapes: ['live', 'backfill'],
    figure: (r) => r?.diskBytes,
    bound: { max: 1.5 },
  },
];

export function renderPeer(results: BenchResults): string {
  const result = results.peer;
  if (!result) return '';
  const run = (shape: PeerShapeKey, system: PeerSystemKey): PeerRun | undefined =>
    result.runs.find((r) => r.shape === shape && r.system === system);
  const tallyLabel = result.runs.find((r) => r.system === 'tally')?.label ?? 'tally';
  const peerLabel = result.runs.find((r) => r.system === 'goatcounter')?.label ?? 'GoatCounter';
  const query = (kind: PeerQueryKind) => (r: PeerRun | undefined) =>
    r?.queries.find((q) => q.kind === kind)?.latencyMs.p50;
  const figures: ReadonlyArray<[string, (r: PeerRun | undefined) => number | undefined, string]> = [
    ['hits/s until every hit is counted', (r) => r?.hitsPerSecond, ''],
    ['CPU per hit, all processes', (r) => r?.cpuUsPerHit, ' µs'],
    ['of which the server process (tally without its database)', (r) => r?.serverCpuUsPerHit, ' µs'],
    ['request p50 (batch of 100)', (r) => r?.requestLatencyMs.p50, ' ms'],
    ['all acknowledged after', (r) => r?.sendMs, ' ms'],
    ['all counted after', (r) => r?.countedMs, ' ms'],
    ['site total, 7 days, p50', query('siteTotal7Days'), ' ms'],
    ['a page by day, 30 days, p50', query('pageByDay30Days'), ' ms'],
    ['a page by hour, 7 days, p50', query('pageByHour7Days'), ' ms'],
    ['top 10 pages, 30 days, p50', query('topPages30Days'), ' ms'],
    ['top 10 referrers, 30 days, p50', query('referrers30Days'), ' ms'],
    ['disk after ingest (running)', (r) => (r === undefined ? undefined : r.diskBytes / MIB), ' MiB'],
    ['disk after a clean stop', (r) => (r?.storedBytes === undefined ? undefined : r.storedBytes / MIB), ' MiB'],
  ];
  const shapes = result.shapes.map((shape) => shape.key);
  const rows = figures.map(([label, figure, unit]) => [
    label,
    ...shapes.flatMap((shape) => {
      const t = figure(run(shape, 'tally'));
      const g = figure(run(shape, 'goatcounter'));
      return [cell(t, unit), cell(g, unit), ratio(t ?? Number.NaN, g ?? Number.NaN)];
    }),
  ]);
  const header = ['', ...shapes.flatMap((shape) => [`tally ${shape}`, `GoatCounter ${shape}`, 'tally ÷ GoatCounter'])];
  const targetRows = TARGETS.flatMap((target) =>
    target.shapes.map((shape) => {
      const t = target.figure(run(shape, 'tally')) ?? Number.NaN;
      const g = target.figure(run(shape, 'goatcounter')) ?? Number.NaN;
      const value = t / g;
      const met = 'max' in target.bound ? value <= target.bound.max : value >= target.bound.min;
      const bound = 'max' in target.bound ? `≤ ${target.bound.max}×` : `≥ ${target.bound.min}×`;
      return [
        `${target.label}, ${shape}`,
        ratio(t, g),
        bound,
        Number.isFinite(value) ? (met ? 'met' : '**missed**') : 'n/a',
      ];
    }),
  );
  const top = result.runs
    .filter((r) => r.system === 'tally')
    .map((r) => `${r.shape} ${cell(query('topPages30Days')(r), ' ms')}`)
    .join(', ');
  targetRows.push([
    'top 10 pages over 30 days, p50 (tally)',
    top,
    '≤ 10 ms at 1,000,000 stored hits',
    result.hits >= 1_000_000 ? 'see the figures' : `not judged: ${fmt(result.hits)} hits here`,
  ]);
  const answers = result.runs.flatMap((r) =>
    r.queries.map((q) => [
      `${r.shape}, ${r.system === 'tally' ? 'tally' : 'GoatCounter'}`,
      q.label,
      q.answer,
      q.mismatch === undefined ? 'equals the truth' : `**differs**: ${q.mismatch}`,
    ]),
  );
  const failures = result.runs
    .filter((r) => r.errors > 0 || r.countedTotal !== r.expectedTotal)
    .map(
      (r) =>
        `- ${r.shape}, ${r.label}: ${r.errors} of ${r.requests} requests failed (${r.firstError ?? 'none'}); counted ` +
        `${fmt(r.countedTotal)} of ${fmt(r.expectedTotal)} when the wait ended.`,
    );
  return `## 11. Side by side with GoatCounter (${tallyLabel}; ${peerLabel})

The same generated traffic to both systems, one after the other, each started fresh in its own directory (issue 27):
${fmt(result.hits)} hits per shape on ${result.pages} Zipf pages, from a pool of ${fmt(result.visitorPool)} visitors (one per ~5 hits,
some far more active), each with a real User-Agent and client address; referrers ${Math.round(REFERRER_MIX.direct * 100)} % none, the rest from the
site itself, search engines, social sites and a long tail of hosts; some hits with UTM values. **live** has
timestamps in the last hour, **backfill** spreads them over 30 days. ${result.clients} clients send batches of
${result.batch}, each client the hits of its own visitors in time order. tally runs as \`npm start\` runs it (its
embedded database in its own data directory, every feature at its default) and gets \`recordHits\`; GoatCounter runs
\`goatcounter serve\` in production mode on SQLite with its rate limits raised, and gets \`POST /api/v0/count\`
(visitor id as the session). The clock runs from the first request until the system's own total equals what was
sent: tally's site total, GoatCounter's \`/api/v0/stats/total\`. GoatCounter keeps hits in memory and writes them
every 10 s, or at once when 5,000 are waiting, so on a small run its rate until counted is mostly that wait. CPU is
every process of the system over the same span, from \`/proc\` (tally and its FerretDB; goatcounter), polling reads
included.
Queries: ${result.queryRounds} rounds of each, p50; ranges are whole UTC days ending today.

${table(header, rows)}

**Against issue 27's targets** (tally ÷ GoatCounter, same run):

${table(['target', 'value', 'bound', 'verdict'], targetRows)}

**Answers**, checked against the exact ones from the generated hits. The two systems count different things:
tally counts hits; GoatCounter counts a visitor's first hit on each page (its "visitors"), so its truth counts
those, in the hour of that first hit. Referrers: tally's source (host, known names such as Google,
\`(direct)\`, \`(internal)\`); GoatCounter's referrer URL without a trailing slash, or the page's \`utm_source\`
when it has one (empty: none). GoatCounter's referrer rows may miss the truth by a few: v2.7.0 groups a persist
cycle's hits for its hourly referrer rows by the string hour + path id + referrer id, with no separator
(\`cron/ref_count.go\`), so e.g. (path 1, referrer 23) and (path 12, referrer 3) in one hour become one row under
the first one's referrer. Its totals are not affected.

${table(['shape, system', 'query', 'answer', 'check'], answers)}
${failures.length ? `\n${failures.join('\n')}\n` : ''}`;
}

function cell(value: number | undefined, unit: string): string {
  return value === undefined || !Number.isFinite(value) ? 'n/a' : `${fmt(value)}${unit}`;
}
