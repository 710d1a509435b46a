/**
 * Two FerretDB builds' CPU per counter upsert, side by side in one run: each build runs as its own embedded server
 * and takes the same update commands, rounds alternating which goes first. A round writes 500 new documents, then
 * updates them five more times; each upsert increments paths the way a window's write does (a day's count, an hour,
 * a minute, five dimension values, five visit fields of the hour) and ORs a sketch word, so most commands add fields
 * a document does not have yet. Prints FerretDB's CPU µs per upsert (from /proc) of each build; no thresholds.
 *   npm run build && node dist/bench/probes/ferretdbBuilds.js --baseline .tools/ferretdb-v1.24.2-tally19/ferretdb
 *     [--build BINARY (default: the one tally starts)] [--rounds 16]
 */
import path from 'node:path';
import { MongoClient } from 'mongodb';
import type { Document } from 'mongodb';
import { startFerretdb } from '../../src/store/embedded/startFerretdb';
import { createLogger } from '../../src/logging/createLogger';
import { parseOptions } from '../shared/options';
import { processCpuSeconds } from '../shared/processCpu';
import { seededRandom } from '../shared/random';
import type { Random } from '../shared/random';
import { median } from '../shared/stats';

const DOCUMENTS = 500;
const PASSES = 6;
const DIMENSIONS: ReadonlyArray<readonly [string, number]> = [
  ['browser', 6],
  ['country', 40],
  ['os', 5],
  ['source', 30],
  ['device', 3],
];

const options = parseOptions(process.argv.slice(2), {
  baseline: { kind: 'string', value: 'BINARY' },
  build: { kind: 'string', value: 'BINARY' },
  rounds: { kind: 'integer', default: 16 },
});

function upsert(id: string, random: Random): Document {
  const pick = (n: number): number => Math.floor(random() * n);
  const hour = pick(24);
  const inc: Record<string, number> = { daily: 1, [`hourly.${hour}`]: 1, [`minute.${hour}.${pick(60)}`]: 1 };
  for (const [dimension, values] of DIMENSIONS) inc[`d.${dimension}.v${pick(values)}`] = 1;
  for (const field of ['b', 'e', 'p', 'v', 'x']) inc[`vh.${hour}.${field}`] = 1;
  return { q: { _id: id }, u: { $inc: inc, $bit: { [`v.${pick(2048)}`]: { or: 1 << pick(30) } } }, upsert: true };
}

interface Build {
  readonly name: string;
  readonly client: MongoClient;
  readonly pid: number | undefined;
  readonly stop: () => Promise<void>;
}

async function open(binary: string | undefined): Promise<Build> {
  const database = await startFerretdb({
    dataDir: undefined,
    logger: createLogger({ level: 'warn', nodeEnv: 'production' }),
    binary,
  });
  const client = await MongoClient.connect(database.uri, { maxPoolSize: 1 });
  return {
    name: `${database.version ?? 'FerretDB'} (${binary === undefined ? 'tally starts it' : path.relative('.', binary)})`,
    client,
    pid: database.pid?.(),
    stop: async () => {
      await client.close();
      await database.stop();
    },
  };
}

async function round(build: Build, seed: number, label: number): Promise<number> {
  const random = seededRandom(seed);
  const db = build.client.db('builds');
  const before = processCpuSeconds(build.pid) ?? Number.NaN;
  for (let pass = 0; pass < PASSES; pass++) {
    const updates = Array.from({ length: DOCUMENTS }, (_, i) => upsert(`r${label}/d${i}`, random));
    await db.command({ update: 'daily', updates, ordered: false });
  }
  return (((processCpuSeconds(build.pid) ?? Number.NaN) - before) * 1e6) / (DOCUMENTS * PASSES);
}

async function main(): Promise<void> {
  if (options.baseline === undefined) throw new Error('--baseline BINARY is required (another FerretDB build)');
  const builds = [await open(options.build), await open(options.baseline)];
  try {
    const cpu: number[][] = builds.map(() => []);
    for (let r = 0; r < options.rounds; r++) {
      const order = r % 2 === 0 ? [0, 1] : [1, 0];
      for (const b of order) cpu[b]?.push(await round(builds[b] as Build, 1 + r, r));
    }
    process.stdout.write(
      `${DOCUMENTS} documents a round, written ${PASSES} times, ${options.rounds} rounds alternating\n` +
        '| build | FerretDB CPU µs per upsert (median) | each round |\n| --- | --- | --- |\n',
    );
    builds.forEach((build, b) => {
      const runs = cpu[b] ?? [];
      process.stdout.write(
        `| ${build.name} | ${median(runs).toFixed(0)} | ${runs.map((c) => c.toFixed(0)).join(', ')} |\n`,
      );
    });
  } finally {
    for (const build of builds) await build.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
