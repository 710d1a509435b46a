/**
 * The tally server's CPU per query for the 1-hour minute chart and the 20-series dashboard (7 days by hour), from
 * its own counter (`tally_process_cpu_seconds_total`), after loading `--hits` hits on `--pages` pages over the
 * last 8 days through recordHitColumns. Prints the median CPU ms per query of each, over rounds alternating the
 * two; no thresholds. `--node-arg --cpu-prof --node-arg --cpu-prof-dir=DIR` profiles the server. `--baseline DIR`
 * also runs the build of another checkout (DIR/dist/src/main.js) on the same data, round by round beside this one.
 *   npm run build && node dist/bench/probes/queryCpu.js [--hits 100000] [--pages 50] [--rounds 7] [--queries 20]
 *     [--baseline DIR] [--only minute|dashboard] [--node-arg A]
 */
import path from 'node:path';
import { GraphqlClient } from '../shared/GraphqlClient';
import { parseOptions } from '../shared/options';
import { snapshotServer, serverDelta } from '../shared/serverMetrics';
import { median } from '../shared/stats';
import { startServer } from '../shared/serverProcess';
import { openTarget } from '../shared/target';
import { BENCH_SITE, hitColumns, OrderedTraffic, pagePath } from '../shared/traffic';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

const options = parseOptions(process.argv.slice(2), {
  hits: { kind: 'integer', default: 100_000 },
  pages: { kind: 'integer', default: 50 },
  rounds: { kind: 'integer', default: 7 },
  queries: { kind: 'integer', default: 20 },
  baseline: { kind: 'string', value: 'DIR', needs: 'the directory of another built checkout' },
  only: { kind: 'strings', value: 'minute|dashboard' },
  'node-arg': { kind: 'strings', value: 'ARG', dashValue: true },
});
const baseline = options.baseline === undefined ? undefined : path.resolve(options.baseline);
const nodeArgs = options['node-arg'];

const RECORD = `mutation($columns: HitColumnsInput!) { recordHitColumns(columns: $columns) { accepted } }`;

function seriesQuery(series: number, granularity: 'MINUTE' | 'HOUR'): string {
  const fields = Array.from(
    { length: series },
    (_, i) =>
      `s${i}: pageStats(site: "${BENCH_SITE}", page: "${pagePath(i)}", range: { from: $from, to: $to }, granularity: ${granularity}) { total values }`,
  );
  return `query($from: DateTime!, $to: DateTime!) {\n${fields.join('\n')}\n}`;
}

async function main(): Promise<void> {
  const { hits, pages, rounds, queries, only } = options;
  const now = Date.now();
  const target = await openTarget({});
  const server = await startServer('child', { uri: target.uri, dbName: 'query_cpu', nodeArgs });
  const client = new GraphqlClient(server.url, 4);
  const servers = [{ name: 'this checkout', client, stop: () => server.stop() }];
  try {
    const traffic = new OrderedTraffic({ pages, zipfS: 1, spanMs: 8 * DAY_MS, now, seed: 14 }, hits);
    for (let from = 0; from < hits; from += 5_000) {
      await client.mustRequest(RECORD, { columns: hitColumns(traffic, from, Math.min(hits, from + 5_000)) });
    }
    if (baseline) {
      const other = await startServer('child', {
        uri: target.uri,
        dbName: 'query_cpu',
        entry: path.join(baseline, 'dist', 'src', 'main.js'),
      });
      servers.push({ name: baseline, client: new GraphqlClient(other.url, 4), stop: () => other.stop() });
    }
    const hour = now - (now % HOUR_MS);
    const kinds = {
      'last hour by minute': {
        query: seriesQuery(1, 'MINUTE'),
        variables: { from: new Date(hour - HOUR_MS).toISOString(), to: new Date(hour).toISOString() },
      },
      'dashboard: 20 series, 7 days by hour': {
        query: seriesQuery(20, 'HOUR'),
        variables: { from: new Date(hour - 7 * DAY_MS).toISOString(), to: new Date(hour).toISOString() },
      },
    };
    for (const name of Object.keys(kinds)) {
      if (only.length > 0 && !only.some((o) => name.includes(o))) delete kinds[name as keyof typeof kinds];
    }
    const samples = new Map<string, number[]>();
    for (let round = 0; round <= rounds; round++) {
      for (const [name, { query, variables }] of Object.entries(kinds)) {
        for (const each of round % 2 ? [...servers].reverse() : servers) {
          const before = await snapshotServer(each.client);
          for (let q = 0; q < queries; q++) await each.client.mustRequest(query, variables);
          const delta = serverDelta(before, await snapshotServer(each.client));
          // Round 0 warms the servers up (JIT, caches) and is not counted.
          const key = `${name} [${each.name}]`;
          if (round > 0) samples.set(key, [...(samples.get(key) ?? []), (delta.cpuSeconds * 1000) / queries]);
        }
      }
    }
    console.log(`server CPU per query, ${hits} hits on ${pages} pages, ${target.label}, median of ${rounds} rounds:`);
    for (const [name, values] of samples) {
      console.log(`  ${name}: ${median(values).toFixed(2)} ms (${values.map((v) => v.toFixed(2)).join(', ')})`);
    }
  } finally {
    for (const each of servers) {
      each.client.close();
      await each.stop();
    }
    await target.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
