/**
 * Projection pushdown (scripts/ensure-ferretdb.js, PATCH_TAG tally9), side by side: two embedded FerretDB builds
 * (default: tally8, the build before it, and the current one) each get the same site daily documents shaped like a
 * busy site's (`metadata`, `daily`, `hourly`, `minute` 24 × 60, `d` with 8 dimensions of `--values` counters, `v`
 * with 8,192 registers, `dv` with a few hundred small per-value sketches: about 19,000 fields), then each find is
 * timed on both (median of `--rounds`): the breakdown's `{_id: {$in}}` projecting `metadata` and `d.source`, the
 * same projecting `v`, and the find without a projection. The two builds' results are compared; a difference stops
 * the probe. No thresholds.
 *   npm run build && node dist/bench/probes/projectionPushdown.js [--docs 30] [--rounds 11] [--values 1000]
 *     [--before PATH] [--after PATH] [--port 28110] [--data-dir DIR]
 * `--port P` starts the builds on P and P + 1 (default: free ports); `--data-dir DIR` keeps their data under DIR
 * (default: temporary directories), removed at the end either way.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import { MongoClient } from 'mongodb';
import type { Document } from 'mongodb';
import { DIMENSIONS } from '../../src/domain/dimensions/Dimension';
import { dimensionKey } from '../../src/domain/dimensions/dimensionKey';
import { createLogger } from '../../src/logging/createLogger';
import { projectRoot } from '../../src/projectRoot';
import type { EmbeddedDatabase } from '../../src/store/embedded/EmbeddedDatabase';
import { startFerretdb } from '../../src/store/embedded/startFerretdb';
import { parseOptions } from '../shared/options';
import { fmt, median } from '../shared/stats';

const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2026, 9, 1);
const SITE = 'projection.bench';
const REGISTERS = 8_192;
const COLLECTION = 'daily';

const options = parseOptions(process.argv.slice(2), {
  docs: { kind: 'integer', default: 30 },
  rounds: { kind: 'integer', default: 11 },
  values: { kind: 'integer', default: 1_000 },
  before: { kind: 'string', value: 'PATH', needs: 'the path of a FerretDB executable' },
  after: { kind: 'string', value: 'PATH', needs: 'the path of a FerretDB executable' },
  port: { kind: 'integer', default: 0 },
  'data-dir': { kind: 'string', value: 'DIR' },
});

/** Counters keyed like the stored format: 1 + a spread of `seed`. */
function counters(keys: readonly string[], seed: number): Record<string, number> {
  return Object.fromEntries(keys.map((key, i) => [key, 1 + ((i * 7919 + seed) % 997)]));
}

function dailyDocument(day: number): Document {
  const date = new Date(FIRST_DAY + day * DAY_MS);
  const minute: Record<string, Record<string, number>> = {};
  for (let h = 0; h < 24; h++)
    minute[String(h)] = counters(
      Array.from({ length: 60 }, (_, m) => String(m)),
      h + day,
    );
  const d: Record<string, Record<string, number>> = {};
  const dv: Record<string, Record<string, Record<string, number>>> = {};
  for (const [k, dimension] of DIMENSIONS.entries()) {
    const keys = Array.from({ length: options.values }, (_, i) => dimensionKey(`${dimension}-${i}.example.org`));
    d[dimension] = counters(keys, k + day);
    // A per-value sketch for the 40 most frequent values of each dimension: 320 subdocuments of 6 registers.
    dv[dimension] = Object.fromEntries(
      keys.slice(0, 40).map((key, i) => [
        key,
        counters(
          Array.from({ length: 6 }, (_, r) => String((i * 131 + r * 1021) % 2048)),
          i,
        ),
      ]),
    );
  }
  return {
    _id: `${date.toISOString().slice(0, 10).replaceAll('-', '')}/${SITE}`,
    metadata: { date, site: SITE, page: '' },
    daily: 24 * 60,
    hourly: counters(
      Array.from({ length: 24 }, (_, h) => String(h)),
      day,
    ),
    minute,
    d,
    v: counters(
      Array.from({ length: REGISTERS }, (_, r) => String(r)),
      day,
    ),
    dv,
  };
}

function fieldCount(value: unknown): number {
  if (value === null || typeof value !== 'object' || value instanceof Date) return 1;
  return Object.values(value).reduce((n: number, v) => n + fieldCount(v), 0);
}

interface Find {
  readonly name: string;
  readonly projection: Document | undefined;
}

const FINDS: readonly Find[] = [
  { name: "breakdown: {_id: 0, metadata: 1, 'd.source': 1}", projection: { _id: 0, metadata: 1, 'd.source': 1 } },
  { name: 'visitors: {_id: 0, metadata: 1, v: 1}', projection: { _id: 0, metadata: 1, v: 1 } },
  { name: 'no projection', projection: undefined },
];

/** The current patched build: the path scripts/ensure-ferretdb.js prints (it builds it first if needed). */
async function currentBuild(): Promise<string> {
  const script = path.join(projectRoot(), 'scripts', 'ensure-ferretdb.js');
  const { stdout } = await promisify(execFile)(process.execPath, [script], { maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim().split('\n').pop() ?? '';
}

interface Server {
  readonly label: string;
  readonly database: EmbeddedDatabase;
  readonly client: MongoClient;
}

async function startServer(label: string, binary: string, port: number, dataDir: string | undefined): Promise<Server> {
  if (!fs.existsSync(binary)) throw new Error(`${label}: no FerretDB build at ${binary}`);
  const logger = createLogger({ level: 'warn', nodeEnv: 'production' });
  const database = await startFerretdb({ dataDir, logger, binary, ...(port ? { port } : {}) });
  const client = await MongoClient.connect(database.uri, { socketTimeoutMS: 300_000 });
  return { label, database, client };
}

async function timeFind(server: Server, ids: readonly string[], find: Find): Promise<[number, Document[]]> {
  const collection = server.client.db('projection_pushdown').collection(COLLECTION);
  const start = performance.now();
  const docs = await collection
    .find({ _id: { $in: ids } } as Document, find.projection ? { projection: find.projection } : {})
    .toArray();
  return [performance.now() - start, docs];
}

async function main(): Promise<void> {
  const before = options.before ?? path.join(projectRoot(), '.tools', 'ferretdb-v1.24.2-tally8', 'ferretdb');
  const after = options.after ?? (await currentBuild());
  const dirs = options['data-dir']
    ? [path.join(options['data-dir'], 'before'), path.join(options['data-dir'], 'after')]
    : [undefined, undefined];
  const servers: Server[] = [];
  try {
    servers.push(await startServer(path.basename(path.dirname(before)), before, options.port, dirs[0]));
    servers.push(
      await startServer(path.basename(path.dirname(after)), after, options.port && options.port + 1, dirs[1]),
    );
    const docs = Array.from({ length: options.docs }, (_, day) => dailyDocument(day));
    const ids = docs.map((doc) => doc._id as string);
    const json = JSON.stringify(docs[0]).length;
    console.log(
      `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; node ${process.version}; ${docs.length} documents of ` +
        `${fieldCount(docs[0]).toLocaleString('en-US')} fields (${(json / 1024).toFixed(0)} KiB as JSON)`,
    );
    for (const server of servers) {
      const collection = server.client.db('projection_pushdown').collection(COLLECTION);
      await collection.drop().catch(() => undefined);
      for (const doc of docs) await collection.insertOne(doc);
    }

    console.log(
      `| find of ${docs.length} documents by _id | ${servers.map((s) => `${s.label} ms`).join(' | ')} | ratio |`,
    );
    console.log(`| --- | ${servers.map(() => '---').join(' | ')} | --- |`);
    for (const find of FINDS) {
      const times: number[][] = servers.map(() => []);
      let results: Document[][] = [];
      // Alternate the builds round by round, so neither gets a quieter machine; the first round warms up.
      for (let round = 0; round <= options.rounds; round++) {
        results = [];
        for (const [i, server] of servers.entries()) {
          const [ms, found] = await timeFind(server, ids, find);
          if (round > 0) times[i]?.push(ms);
          results.push(found);
        }
        if (!isDeepStrictEqual(results[0], results[1])) throw new Error(`${find.name}: the builds' results differ`);
      }
      if (results[0]?.length !== docs.length) throw new Error(`${find.name}: found ${results[0]?.length} documents`);
      const medians = times.map((t) => median(t));
      console.log(
        `| ${find.name} | ${medians.map((m) => fmt(m)).join(' | ')} | ${fmt((medians[0] as number) / (medians[1] as number))}× |`,
      );
    }
    console.log(`results identical between the builds for every find and round; medians of ${options.rounds} rounds`);
  } finally {
    for (const server of servers) {
      await server.client.close();
      await server.database.stop();
    }
    if (options['data-dir']) fs.rmSync(options['data-dir'], { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
