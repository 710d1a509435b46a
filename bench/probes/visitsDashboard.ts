/**
 * The 90-day, 20-series dashboard with the six top-line figures against without them (issue 29), side by side in
 * one run on one server: the stored data of the benchmark's section 9 (audienceFixtures: two sites over 90 days,
 * Zipf pages, a pool of repeat visitors, every dimension, and the visit counters the server's own transitions
 * give), read through GraphQL over HTTP from a tally server (a child process). Kinds take turns in rounds, in
 * alternating order, after a warm-up round. Prints p50/p95 latency, the server's CPU and finds per query, and the
 * ratios; no thresholds.
 *   npm run build && node dist/bench/probes/visitsDashboard.js [--hits 100000] [--pages 50] [--rounds 7]
 */
import { GraphqlClient } from '../shared/GraphqlClient';
import { parseOptions } from '../shared/options';
import { serverDelta, snapshotServer } from '../shared/serverMetrics';
import { openServerProbe, runProbe } from '../shared/serverProbe';
import { ratio, summarize } from '../shared/stats';
import { AUDIENCE_DAYS, AUDIENCE_SITES, DASHBOARD_PAGES, loadAudienceData } from '../suite/audienceFixtures';
import { dashboardQuery as dashboard } from '../suite/audienceQueries';

const options = parseOptions(process.argv.slice(2), {
  hits: { kind: 'integer', default: 100_000 },
  pages: { kind: 'integer', default: 50 },
  rounds: { kind: 'integer', default: 7 },
});

const DAY_MS = 86_400_000;
const SIX = 'visitors visits bounceRate visitDuration viewsPerVisit';
const KINDS = [
  { key: 'hits', label: 'hits only (`total values`)', fields: 'total values' },
  { key: 'visitors', label: 'hits and visitors', fields: 'total values visitors' },
  {
    key: 'six',
    label: 'the six figures (hits, visitors, visits, bounce rate, duration, views/visit)',
    fields: `total values ${SIX}`,
  },
  {
    key: 'sixPoints',
    label: 'the six figures, and each day’s',
    fields: `total values ${SIX} points { ${SIX} }`,
  },
] as const;

interface Timed {
  latencies: number[];
  cpuMs: number[];
  finds: number[];
}

async function main(): Promise<void> {
  const probe = await openServerProbe('visits_dashboard', { MONGODB_TIMEOUT_MS: '120000' });
  const client = new GraphqlClient(probe.server.url, 2);
  try {
    const data = await loadAudienceData(probe.db, { hits: options.hits, pages: options.pages, now: Date.now() });
    const site = (AUDIENCE_SITES[0] as (typeof AUDIENCE_SITES)[number]).site;
    const to = data.first + AUDIENCE_DAYS * DAY_MS;
    const variables = { from: new Date(to - AUDIENCE_DAYS * DAY_MS).toISOString(), to: new Date(to).toISOString() };
    // The figures must be there to be read: the top page's visits over the range.
    const check = await client.mustRequest<{ s0: { visits: number | null; bounceRate: number | null } }>(
      dashboard(site, `total values ${SIX}`),
      variables,
    );
    if (!((check.data?.s0.visits ?? 0) > 0)) throw new Error('the stored data holds no visits to read');
    const timed = new Map<string, Timed>(KINDS.map((k) => [k.key, { latencies: [], cpuMs: [], finds: [] }]));
    for (let round = 0; round <= options.rounds; round++) {
      const order = round % 2 === 0 ? KINDS : [...KINDS].reverse();
      for (const kind of order) {
        const before = await snapshotServer(client);
        const started = performance.now();
        await client.mustRequest(dashboard(site, kind.fields), variables);
        const latency = performance.now() - started;
        const delta = serverDelta(before, await snapshotServer(client));
        if (round === 0) continue;
        const into = timed.get(kind.key) as Timed;
        into.latencies.push(latency);
        into.cpuMs.push(delta.cpuSeconds * 1000);
        into.finds.push(delta.commands.find ?? 0);
      }
    }
    const p50 = (key: string) => summarize((timed.get(key) as Timed).latencies).p50;
    const cpu = (key: string) => summarize((timed.get(key) as Timed).cpuMs).p50;
    process.stdout.write(
      `${probe.description}; ${data.hitsPerSite} hits per site on ${options.pages} pages over ${AUDIENCE_DAYS} days, ` +
        `${data.dailyDocuments} daily + ${data.monthlyDocuments} monthly documents; ${DASHBOARD_PAGES} series by DAY, ` +
        `${options.rounds} rounds after a warm-up; top page: ${check.data?.s0.visits} visits, bounce rate ` +
        `${check.data?.s0.bounceRate?.toFixed(3)}\n`,
    );
    process.stdout.write(
      '| dashboard fields | latency ms p50 / p95 | p50 against hits only | server CPU ms/query p50 | finds/query |\n| --- | --- | --- | --- | --- |\n',
    );
    for (const kind of KINDS) {
      const t = timed.get(kind.key) as Timed;
      const latency = summarize(t.latencies);
      process.stdout.write(
        `| ${kind.label} | ${latency.p50.toFixed(1)} / ${latency.p95.toFixed(1)} | ${ratio(p50(kind.key), p50('hits'))} | ` +
          `${cpu(kind.key).toFixed(1)} | ${summarize(t.finds).p50} |\n`,
      );
    }
    process.stdout.write(
      `six figures against hits and visitors: p50 ${ratio(p50('six'), p50('visitors'))}, server CPU ${ratio(cpu('six'), cpu('visitors'))}\n`,
    );
  } finally {
    await probe.close();
  }
}

runProbe(main);
