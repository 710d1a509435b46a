/**
 * The embedded FerretDB's CPU per conditional upsert under Go's GC targets, side by side in one run: for each GOGC a
 * fresh embedded FerretDB takes the same writes as the visit sessions' (2,000 small documents, then rounds of 2,000
 * upserts conditional on a version field, each setting a nested state and an outbox), rounds alternating between
 * the settings. Prints FerretDB's CPU µs per upsert (from /proc) and its peak resident memory; no thresholds.
 * tally starts its embedded FerretDB with GOGC=400 (src/store/embedded/startFerretdb.ts); this is why.
 *   npm run build && node dist/bench/probes/ferretdbGogc.js [--rounds 2] [--gogc 100,400,800]
 */
import fs from 'node:fs';
import { MongoClient } from 'mongodb';
import { startFerretdb } from '../../src/store/embedded/startFerretdb';
import { createLogger } from '../../src/logging/createLogger';
import { parseOptions } from '../shared/options';
import { processCpuSeconds } from '../shared/processCpu';
import { median } from '../shared/stats';

const DOCUMENTS = 2_000;
const WRITES = 10;

const options = parseOptions(process.argv.slice(2), {
  rounds: { kind: 'integer', default: 2 },
  gogc: { kind: 'integers', default: [100, 400, 800] },
});

const STATE = {
  s: 1,
  l: 2,
  e: '/a/b/c',
  x: '/d/e',
  n: 3,
  b: false,
  d: { s: 'Google', c: 'DE', br: 'Chrome' },
  g: [1, 2],
};

async function measure(gogc: number): Promise<{ cpuUs: number; peakMb: number | undefined }> {
  const logger = createLogger({ level: 'warn', nodeEnv: 'production' });
  const previous = process.env.GOGC;
  process.env.GOGC = String(gogc);
  const database = await startFerretdb({ dataDir: undefined, logger });
  if (previous === undefined) delete process.env.GOGC;
  else process.env.GOGC = previous;
  const client = await MongoClient.connect(database.uri);
  try {
    const sessions = client.db('gogc').collection<{ _id: string }>('sessions');
    const ids = Array.from({ length: DOCUMENTS }, (_, i) => `s${String(i).padStart(6, '0')}`);
    await sessions.bulkWrite(
      ids.map((id) => ({
        updateOne: { filter: { _id: id }, update: { $set: { w: 'a:1', z: STATE } }, upsert: true },
      })),
      { ordered: false },
    );
    const pid = database.pid?.();
    const before = processCpuSeconds(pid) ?? 0;
    for (let round = 2; round < 2 + WRITES; round++) {
      await sessions.bulkWrite(
        ids.map((id) => ({
          updateOne: {
            filter: { _id: id, w: `a:${round - 1}` },
            update: { $set: { w: `a:${round}`, z: STATE, 'o.a': { q: round, p: STATE }, x: new Date() } },
            upsert: true,
          },
        })),
        { ordered: false },
      );
    }
    const cpu = (processCpuSeconds(pid) ?? 0) - before;
    return { cpuUs: (cpu * 1e6) / (DOCUMENTS * WRITES), peakMb: peakMemoryMb(pid) };
  } finally {
    await client.close();
    await database.stop();
  }
}

function peakMemoryMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const line = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) / 1024 : undefined;
}

async function main(): Promise<void> {
  const settings = options.gogc;
  const results = new Map(settings.map((s) => [s, [] as Array<{ cpuUs: number; peakMb: number | undefined }>]));
  for (let round = 0; round < options.rounds; round++) {
    for (const gogc of settings) results.get(gogc)?.push(await measure(gogc));
  }
  process.stdout.write(`${DOCUMENTS} documents, ${WRITES} conditional upserts each, ${options.rounds} rounds\n`);
  process.stdout.write(
    '| GOGC | FerretDB CPU µs per upsert (median) | each round | peak memory MB |\n| --- | --- | --- | --- |\n',
  );
  for (const [gogc, runs] of results) {
    const cpu = runs.map((r) => r.cpuUs);
    const peak = runs.map((r) => (r.peakMb === undefined ? '?' : r.peakMb.toFixed(0))).join(', ');
    process.stdout.write(
      `| ${gogc} | ${median(cpu).toFixed(0)} | ${cpu.map((c) => c.toFixed(0)).join(', ')} | ${peak} |\n`,
    );
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
