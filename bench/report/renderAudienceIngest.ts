/** Section 7 of docs/benchmarks.md: ingest with visitors and dimensions against without, per traffic shape. */
import type { BenchResults } from '../suite/BenchResults';
import type { AudienceIngestRun, AudienceVariantKey } from '../suite/audienceIngest';
import { AUDIENCE_VARIANTS } from '../suite/audienceIngest';
import { REFERRER_MIX, UTM_SHARE } from '../shared/audienceTraffic';
import { fmt, ratio } from '../shared/stats';
import { table } from './markdownTable';

/** The issues' targets: this variant's hits/s over that one's must stay at or above the floor. */
const TARGETS: ReadonlyArray<{
  readonly label: string;
  readonly on: AudienceVariantKey;
  readonly off: AudienceVariantKey;
  readonly floor?: number;
  readonly issue?: string;
}> = [
  { label: 'with visitors ÷ without', on: 'visitors', off: 'off', floor: 0.7, issue: 'issue 19' },
  { label: 'with every dimension ÷ without', on: 'dimensions', off: 'off', floor: 0.6, issue: 'issue 20' },
  { label: 'visitors and every dimension ÷ neither', on: 'all', off: 'off' },
  { label: 'visitors added to every dimension (all ÷ dimensions)', on: 'all', off: 'dimensions' },
  {
    label: 'the same without per-value visitor sketches (DIMENSION_VISITORS=none ÷ dimensions)',
    on: 'allWithoutValueVisitors',
    off: 'dimensions',
  },
];

function share(fraction: number): string {
  return `${Math.round(fraction * 100)} %`;
}

export function renderAudienceIngest(results: BenchResults): string {
  const result = results.audienceIngest;
  if (!result) return '';
  const e = result.engine;
  const run = (shape: string, variant: AudienceVariantKey): AudienceIngestRun | undefined =>
    result.runs.find((r) => r.shape === shape && r.variant === variant);
  const shapes = result.shapes.map((shape) => {
    const off = run(shape.key, 'off');
    const rows = AUDIENCE_VARIANTS.map((variant) => {
      const r = run(shape.key, variant.key);
      if (!r) return [variant.label, 'not run'];
      const rounds = r.roundHitsPerSecond;
      return [
        `${variant.key}: ${variant.label}`,
        fmt(r.hitsPerSecond),
        ratio(r.hitsPerSecond, off?.hitsPerSecond ?? Number.NaN),
        rounds.length ? `${fmt(Math.min(...rounds))}–${fmt(Math.max(...rounds))}` : 'n/a',
        fmt(r.writeCommandsPerHit * 1000),
        fmt(r.serverCpuUsPerHit),
        fmt(r.databaseCpuUsPerHit),
        fmt(r.clientCpuUsPerHit),
        `${fmt(r.requestLatencyMs.p50)} / ${fmt(r.requestLatencyMs.p95)}`,
        `${fmt(r.hits)}${r.errors ? ` (${r.errors} failed: \`${r.firstError}\`)` : ''}`,
      ];
    });
    return `**${shape.label}** (${e}):

${table(
  [
    `variant (${e})`,
    'hits/s',
    'vs off',
    'hits/s per round, min–max',
    'write commands per 1,000 hits',
    'tally CPU µs/hit',
    'database CPU µs/hit',
    'load-generator CPU µs/hit',
    'request p50 / p95 ms',
    'hits',
  ],
  rows,
)}
`;
  });
  const targetRows = TARGETS.map((target) => {
    const cells = result.shapes.map((shape) => {
      const on = run(shape.key, target.on)?.hitsPerSecond ?? Number.NaN;
      const off = run(shape.key, target.off)?.hitsPerSecond ?? Number.NaN;
      const value = on / off;
      const verdict =
        target.floor === undefined || !Number.isFinite(value) ? '' : value >= target.floor ? ' (met)' : ' (**missed**)';
      return `${ratio(on, off)}${verdict}`;
    });
    return [target.label, ...cells, target.floor === undefined ? '—' : `≥ ${target.floor}× (${target.issue})`];
  });
  const a = result.audience;
  return `## 7. Ingest with visitors and dimensions (${e})

\`recordHits\` in batches of ${fmt(result.batch)}, five variants side by side in one run: **off** (hits without a
\`visitor\` and without dimension inputs, on a server with \`DIMENSIONS_ENABLED=false\`), **visitors** (each hit with
its \`visitor\` id, same server settings), **dimensions** (each hit with \`referrer\`, \`userAgent\`, \`clientIp\` and, on
${share(UTM_SHARE)} of hits, UTM values as explicit \`dimensions\`, on a server with dimensions on, the default), **all** (both)
and **allWithoutValueVisitors** (both, on a server with \`DIMENSION_VISITORS=none\`: no per-value visitor sketches).
Each variant has its own tally server (a child process) and database on the same engine, so none writes into
documents another one grew; all send the same hits. They take turns: ${result.rounds} rounds of
${result.batchesPerRound} batch(es) each, the order reversed every other round, after one warm-up batch each; request
bodies are serialized before a round's clock starts. Figures sum the rounds: hits/s is hits over the time spent
sending them, CPU per hit is each process's CPU over the same rounds (the tally server's from its \`/metrics\`, the
database's from \`/proc\`, both charged only while that variant ran), write commands come from the server's
\`/metrics\`. "hits/s per round" shows the spread the machine's other load caused.

Visitors come from a pool of ${fmt(a.visitors)} with repeat visits (the k-th most active visits with weight
1/k^${a.visitorZipfS}); each has one of a dozen real User-Agents (by market share) and one client address (a seventh
IPv6). Referrers: ${share(REFERRER_MIX.direct)} none, ${share(REFERRER_MIX.internal)} the site's own pages, ${share(REFERRER_MIX.search)} search engines (Google's domains, Bing,
DuckDuckGo, Yahoo), ${share(REFERRER_MIX.social)} social sites, ${share(REFERRER_MIX.longTail)} a long tail of ${fmt(a.longTailHosts)} hosts (Zipf). Timestamps span the last 24
hours in order, as in section 2.

${shapes.join('\n')}
**Against the issues' targets** (${e}; hits/s of one variant over another, same run):

${table([`ratio (${e})`, ...result.shapes.map((shape) => `${shape.key} traffic`), 'target'], targetRows)}

What it shows: write commands per hit do not change (sketch words and dimension counters ride in the same upserts, one
command per collection and flush); what grows is the work per document — sketch registers (\`$bit\`) and dimension
counters in every page and site document, and per-value visitor sketches for \`DIMENSION_VISITORS\` in the site
documents — which the tally server builds and the database applies.${results.engine.name === 'FerretDB' ? ' On FerretDB every update rewrites the whole document, so bigger documents cost the database in proportion: compare the database CPU per hit across variants.' : ''}
`;
}
