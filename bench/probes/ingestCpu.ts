/**
 * The tally server's CPU per batched hit, recordHits against recordHitColumns, side by side on one server: the
 * same hits in batches of 1,000, alternating variants round by round (each round sends one slice of traffic in
 * both forms, in alternating order). CPU is the server's own counter (`tally_process_cpu_seconds_total`), so
 * the load generator and the database do not count. Prints the median µs per hit of each variant and their
 * ratio; no thresholds. `--baseline DIR` also sends the recordHits batches to the build of another checkout
 * (DIR/dist/src/main.js, its own database on the same engine), round by round beside this one.
 * `--node-arg --cpu-prof --node-arg --cpu-prof-dir=DIR` profiles the server.
 * Visitors and dimensions (issues 19, 20): `--inputs` adds both forms again with a visitor id, a referrer, a
 * User-Agent and a client address per hit (bench/shared/hitInputs: what a beacon or a log line carries), and
 * `--dimensions-off` sends the plain batches to a second server with DIMENSIONS_ENABLED=false as well (its own
 * database on the same engine), so one run shows: no dimensions, dimensions from markers alone, visitors and
 * derived dimensions.
 *   npm run build && node dist/bench/probes/ingestCpu.js [--rounds 7] [--batches 10] [--pages 20] [--env K=V]
 *     [--node-arg A] [--only NAME] [--baseline DIR] [--inputs] [--dimensions-off]
 */
import path from 'node:path';
import { GraphqlClient } from '../shared/GraphqlClient';
import { parseOptions } from '../shared/options';
import { snapshotServer, serverDelta } from '../shared/serverMetrics';
import { median } from '../shared/stats';
import { startServer } from '../shared/serverProcess';
import { openTarget } from '../shared/target';
import { hitInputs, inputColumns } from '../shared/hitInputs';
import { hitColumns, OrderedTraffic } from '../shared/traffic';

const DAY_MS = 86_400_000;
const BATCH = 1000;

const RECORD_HITS = `mutation RecordHits($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted } }`;
const RECORD_HIT_COLUMNS = `mutation RecordHitColumns($columns: HitColumnsInput!) {
  recordHitColumns(columns: $columns) { accepted }
}`;

const options = parseOptions(process.argv.slice(2), {
  rounds: { kind: 'integer', default: 7 },
  batches: { kind: 'integer', default: 10 },
  pages: { kind: 'integer', default: 20 },
  env: { kind: 'strings', value: 'K=V' },
  'node-arg': { kind: 'strings', value: 'ARG', dashValue: true },
  only: { kind: 'strings', value: 'NAME' },
  baseline: { kind: 'string', value: 'DIR', needs: 'the directory of another built checkout' },
  inputs: { kind: 'flag' },
  'dimensions-off': { kind: 'flag' },
});
const INPUT_SEED = 2003;

function extraEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of options.env) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new Error(`--env needs KEY=VALUE, got ${JSON.stringify(pair)}`);
    env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

interface Variant {
  readonly name: string;
  readonly client: GraphqlClient;
  readonly send: (client: GraphqlClient, from: number) => Promise<void>;
}

async function main(): Promise<void> {
  const { rounds, batches, pages, baseline: baselineDir, only } = options;
  const target = await openTarget({});
  const traffic = new OrderedTraffic(
    { pages, zipfS: 1, spanMs: DAY_MS, now: Date.now(), seed: 2002 },
    (rounds + 1) * batches * BATCH,
  );
  const sendHits = async (client: GraphqlClient, from: number): Promise<void> => {
    const hits = [];
    for (let h = from; h < from + BATCH; h++) {
      const hit = traffic.hit(h);
      hits.push({ site: hit.site, page: hit.page, at: new Date(hit.at).toISOString() });
    }
    await client.mustRequest(RECORD_HITS, { hits });
  };
  const sendColumns = async (client: GraphqlClient, from: number): Promise<void> => {
    await client.mustRequest(RECORD_HIT_COLUMNS, { columns: hitColumns(traffic, from, from + BATCH) });
  };
  const sendHitsWithInputs = async (client: GraphqlClient, from: number): Promise<void> => {
    const hits = [];
    for (let h = from; h < from + BATCH; h++) {
      const hit = traffic.hit(h);
      hits.push({ site: hit.site, page: hit.page, at: new Date(hit.at).toISOString(), ...hitInputs(INPUT_SEED, h) });
    }
    await client.mustRequest(RECORD_HITS, { hits });
  };
  const sendColumnsWithInputs = async (client: GraphqlClient, from: number): Promise<void> => {
    const columns = { ...hitColumns(traffic, from, from + BATCH), ...inputColumns(INPUT_SEED, from, from + BATCH) };
    await client.mustRequest(RECORD_HIT_COLUMNS, { columns });
  };
  const stops: Array<() => Promise<void>> = [];
  const variants: Variant[] = [];
  try {
    const server = await startServer('child', {
      uri: target.uri,
      dbName: 'ingest_cpu',
      env: extraEnv(),
      nodeArgs: options['node-arg'],
    });
    const client = new GraphqlClient(server.url, 4);
    stops.push(async () => {
      client.close();
      await server.stop();
    });
    variants.push({ name: 'recordHits', client, send: sendHits });
    variants.push({ name: 'recordHitColumns', client, send: sendColumns });
    if (options.inputs) {
      variants.push({ name: 'recordHits +visitors +inputs', client, send: sendHitsWithInputs });
      variants.push({ name: 'recordHitColumns +visitors +inputs', client, send: sendColumnsWithInputs });
    }
    if (options['dimensions-off']) {
      const off = await startServer('child', {
        uri: target.uri,
        dbName: 'ingest_cpu_dimensions_off',
        env: { ...extraEnv(), DIMENSIONS_ENABLED: 'false' },
        nodeArgs: options['node-arg'],
      });
      const offClient = new GraphqlClient(off.url, 4);
      stops.push(async () => {
        offClient.close();
        await off.stop();
      });
      variants.push({ name: 'recordHits [DIMENSIONS_ENABLED=false]', client: offClient, send: sendHits });
      variants.push({ name: 'recordHitColumns [DIMENSIONS_ENABLED=false]', client: offClient, send: sendColumns });
    }
    if (baselineDir !== undefined) {
      // Its own database: each server is the only writer of its documents.
      const baseline = await startServer('child', {
        uri: target.uri,
        dbName: 'ingest_cpu_baseline',
        entry: path.join(path.resolve(baselineDir), 'dist', 'src', 'main.js'),
      });
      const baselineClient = new GraphqlClient(baseline.url, 4);
      stops.push(async () => {
        baselineClient.close();
        await baseline.stop();
      });
      variants.push({ name: `recordHits [${baselineDir}]`, client: baselineClient, send: sendHits });
    }
    const chosen = variants.filter((v) => only.length === 0 || only.includes(v.name));
    const samples = new Map<string, number[]>(chosen.map((v) => [v.name, []]));
    // Round 0 warms the servers (JIT, connections, documents) and is not counted.
    for (let round = 0; round <= rounds; round++) {
      for (const variant of round % 2 ? [...chosen].reverse() : chosen) {
        const before = await snapshotServer(variant.client);
        for (let b = 0; b < batches; b++) await variant.send(variant.client, (round * batches + b) * BATCH);
        const delta = serverDelta(before, await snapshotServer(variant.client));
        if (round > 0) samples.get(variant.name)?.push((delta.cpuSeconds * 1e6) / (batches * BATCH));
      }
    }
    console.log(
      `server CPU per hit, batches of ${BATCH}, ${pages} pages, ${target.label}, median of ${rounds} rounds:`,
    );
    for (const [name, values] of samples) {
      console.log(`  ${name}: ${median(values).toFixed(1)} µs/hit (${values.map((v) => v.toFixed(1)).join(', ')})`);
    }
    const hits = samples.get('recordHits');
    const columns = samples.get('recordHitColumns');
    if (hits?.length && columns?.length) {
      console.log(`  recordHitColumns ÷ recordHits: ${(median(columns) / median(hits)).toFixed(2)}`);
    }
  } finally {
    for (const stop of stops) await stop();
    await target.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
