/**
 * The tally server's CPU per batched hit, recordHits against recordHitColumns, side by side on one server: the
 * same hits in batches of 1,000, alternating variants round by round (each round sends one slice of traffic in
 * both forms, in alternating order). CPU is the server's own counter (`tally_process_cpu_seconds_total`), so
 * the load generator and the database do not count. Prints the median µs per hit of each variant and their
 * ratio; no thresholds. `--node-arg --cpu-prof --node-arg --cpu-prof-dir=DIR` profiles the server.
 *   npm run build && node dist/bench/ingestCpu.js [--rounds 7] [--batches 10] [--pages 20] [--env K=V] [--node-arg A] [--only recordHits|recordHitColumns]
 */
import { GraphqlClient } from './GraphqlClient';
import { snapshotServer, serverDelta } from './serverMetrics';
import { startServer } from './serverProcess';
import { openTarget } from './target';
import { OrderedTraffic } from './traffic';

const DAY_MS = 86_400_000;
const BATCH = 1000;

const RECORD_HITS = `mutation RecordHits($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;
const RECORD_HIT_COLUMNS = `mutation RecordHitColumns($columns: HitColumnsInput!) {
  recordHitColumns(columns: $columns) { accepted }
}`;

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index < 0 ? fallback : Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a positive integer, got ${value}`);
  return value;
}

function repeated(flag: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === flag ? [process.argv[i + 1] ?? ''] : []));
}

function extraEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of repeated('--env')) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new Error(`--env needs KEY=VALUE, got ${JSON.stringify(pair)}`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

async function main(): Promise<void> {
  const rounds = option('rounds', 7);
  const batches = option('batches', 10);
  const pages = option('pages', 20);
  const target = await openTarget({});
  const server = await startServer('child', {
    uri: target.uri,
    dbName: 'ingest_cpu',
    env: extraEnv(),
    nodeArgs: repeated('--node-arg'),
  });
  const client = new GraphqlClient(server.url, 4);
  const traffic = new OrderedTraffic(
    { pages, zipfS: 1, spanMs: DAY_MS, now: Date.now(), seed: 2002 },
    (rounds + 1) * batches * BATCH,
  );
  const variants = {
    recordHits: async (from: number): Promise<void> => {
      const hits = [];
      for (let h = from; h < from + BATCH; h++) {
        const hit = traffic.hit(h);
        hits.push({ site: hit.site, page: hit.page, at: new Date(hit.at).toISOString() });
      }
      await client.mustRequest(RECORD_HITS, { hits });
    },
    recordHitColumns: async (from: number): Promise<void> => {
      const pageIndex = new Map<string, number>();
      const columns = { sites: [] as string[], pages: [] as string[], pageIndex: [] as number[], atMs: [] as number[] };
      for (let h = from; h < from + BATCH; h++) {
        const hit = traffic.hit(h);
        if (columns.sites.length === 0) columns.sites.push(hit.site);
        let index = pageIndex.get(hit.page);
        if (index === undefined) {
          pageIndex.set(hit.page, (index = columns.pages.length));
          columns.pages.push(hit.page);
        }
        columns.pageIndex.push(index);
        columns.atMs.push(hit.at);
      }
      await client.mustRequest(RECORD_HIT_COLUMNS, { columns });
    },
  };
  const samples: Record<keyof typeof variants, number[]> = { recordHits: [], recordHitColumns: [] };
  const only = repeated('--only');
  const names = (Object.keys(variants) as Array<keyof typeof variants>).filter(
    (name) => only.length === 0 || only.includes(name),
  );
  try {
    // Round 0 warms the server (JIT, connection, documents) and is not counted.
    for (let round = 0; round <= rounds; round++) {
      const order = round % 2 ? [...names].reverse() : names;
      for (const name of order) {
        const before = await snapshotServer(client);
        for (let b = 0; b < batches; b++) await variants[name]((round * batches + b) * BATCH);
        const delta = serverDelta(before, await snapshotServer(client));
        if (round > 0) samples[name].push((delta.cpuSeconds * 1e6) / (batches * BATCH));
      }
    }
  } finally {
    client.close();
    await server.stop();
    await target.stop();
  }
  console.log(`server CPU per hit, batches of ${BATCH}, ${pages} pages, ${target.label}, median of ${rounds} rounds:`);
  for (const name of names) {
    console.log(
      `  ${name}: ${median(samples[name]).toFixed(1)} µs/hit (${samples[name].map((s) => s.toFixed(1)).join(', ')})`,
    );
  }
  if (names.length < 2) return;
  console.log(
    `  recordHitColumns ÷ recordHits: ${(median(samples.recordHitColumns) / median(samples.recordHits)).toFixed(2)}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
