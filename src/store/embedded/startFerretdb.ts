/**
 * Starts FerretDB 1.24.2 (tally's patched build, see scripts/ensure-ferretdb.js) on its SQLite backend, on a
 * loopback port, and keeps it running: if the process dies while tally runs, it is started again on the same port
 * and data directory (with backoff and a log line), so the driver reconnects and writes resume.
 * Telemetry and the debug listener are off so the process makes no outbound calls. On Linux the child gets a
 * parent-death signal (`setpriv --pdeathsig`), so even a tally killed with SIGKILL leaves no FerretDB behind.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../../logging/createLogger';
import type { EmbeddedDatabase } from './EmbeddedDatabase';
import { StartRefusedError } from '../../errors/StartRefusedError';
import { binaryVersion } from './binaryVersion';
import { lowerPriority } from './lowerPriority';
import { projectRoot } from '../../projectRoot';

const STARTUP_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
const RESTART_FIRST_DELAY_MS = 250;
const RESTART_MAX_DELAY_MS = 10_000;
/** A server that stayed up this long has recovered: the next crash starts the backoff afresh. */
const RESTART_RESET_AFTER_MS = 60_000;

/** Why a FerretDB build of `version` may not start on the data (ferretdbDataFormat); undefined: it may. */
export type RefuseVersion = (version: string | undefined) => string | undefined;

interface Started {
  readonly child: ChildProcess;
  readonly port: number;
  readonly exited: Promise<void>;
}

export async function startFerretdb(options: {
  dataDir: string | undefined;
  logger: Logger;
  /** A fixed port (tests); default: a free one. */
  port?: number;
  /** A FerretDB executable to run instead of the patched build (the benchmarks compare builds). */
  binary?: string | undefined;
  /** The server's nice value (lowerPriority); 0 or undefined: the default priority. */
  niceness?: number | undefined;
  /** Asked before the build runs: a reason refuses the start. */
  refuseVersion?: RefuseVersion | undefined;
}): Promise<EmbeddedDatabase> {
  const { logger } = options;
  const binary = options.binary ?? (await ferretdbBinary());
  const version = binaryVersion(binary);
  const refusal = options.refuseVersion?.(version);
  if (refusal !== undefined) throw new StartRefusedError(refusal);
  const temporary = options.dataDir === undefined;
  const dir = temporary
    ? fs.mkdtempSync(path.join(os.tmpdir(), 'tally-ferretdb-data-'))
    : path.resolve(options.dataDir as string, 'ferretdb');
  fs.mkdirSync(dir, { recursive: true });

  const niceness = options.niceness ?? 0;
  let current = await launch(binary, dir, options.port ?? 0, logger, niceness);
  let stopping: Promise<void> | undefined;
  let restarts = 0;
  let delay = RESTART_FIRST_DELAY_MS;
  const port = current.port;
  logger.info(
    { port, dataDir: temporary ? '(temporary)' : dir, pid: current.child.pid, niceness },
    'embedded FerretDB started',
  );

  const supervise = (started: Started): void => {
    const since = Date.now();
    void started.exited.then(async () => {
      if (stopping) return;
      if (Date.now() - since > RESTART_RESET_AFTER_MS) delay = RESTART_FIRST_DELAY_MS;
      const { exitCode, signalCode } = started.child;
      for (;;) {
        logger.warn({ exitCode, signal: signalCode, restartInMs: delay }, 'embedded FerretDB exited; restarting it');
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(RESTART_MAX_DELAY_MS, delay * 2);
        if (stopping) return;
        try {
          current = await launch(binary, dir, port, logger, niceness);
          restarts += 1;
          logger.info({ port, restarts, pid: current.child.pid }, 'embedded FerretDB restarted');
          supervise(current);
          return;
        } catch (error) {
          logger.error({ err: error }, 'embedded FerretDB failed to restart');
        }
      }
    });
  };
  supervise(current);

  return {
    uri: `mongodb://127.0.0.1:${port}/`,
    engine: 'ferretdb',
    version,
    dataDir: temporary ? undefined : dir,
    pid: () => current.child.pid,
    stop() {
      stopping ??= (async () => {
        const { child, exited } = current;
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
          await exited;
          clearTimeout(timer);
        }
        if (temporary) fs.rmSync(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}

/** Go's GC target for the embedded FerretDB (see launch). */
const EMBEDDED_GOGC = '400';

/** Bytes the write-ahead log is cut back to once checkpointed (see launch). */
const WAL_SIZE_LIMIT = 4 * 1024 * 1024;

async function launch(binary: string, dir: string, port: number, logger: Logger, niceness: number): Promise<Started> {
  const args = [
    '--handler=sqlite',
    // FerretDB wants a directory URL ending in "/". synchronous(normal): in WAL mode a commit is durable against a
    // crash of the process (not of the machine) without an fsync per write, which is what MongoDB's default write
    // concern promises too; FULL cost an fsync per updated document. journal_size_limit: SQLite keeps the log file at
    // the size of the largest transaction it held until told otherwise, and a backfill's window writes tens of MB of
    // day documents in one update command (20 MB of log beside a 35 MB database after the peer benchmark's backfill);
    // once checkpointed, the log is cut back to its usual 4 MB (1,000 pages, SQLite's checkpoint threshold).
    `--sqlite-url=file:${dir}/?_pragma=synchronous(normal)&_pragma=journal_size_limit(${WAL_SIZE_LIMIT})`,
    `--listen-addr=127.0.0.1:${port}`,
    '--telemetry=disable',
    '--state-dir=-',
    '--debug-addr=-',
  ];
  const [command, commandArgs] = withParentDeathSignal(binary, args);
  const child = spawn(command, commandArgs, {
    // GOGC=400: FerretDB allocates a whole document per statement, and at Go's default 100 a quarter of its CPU under
    // tally's writes was garbage collection; 400 cut its CPU per upserted document by about a third for about 40 MB more
    // memory (docs/ferretdb.md). An operator's own GOGC wins.
    env: { GOGC: EMBEDDED_GOGC, ...process.env, DO_NOT_TRACK: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const listening = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`FerretDB did not listen within ${STARTUP_TIMEOUT_MS} ms`)),
      STARTUP_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /Listening on TCP 127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    function fail(error: Error): void {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${output.slice(-2000)}`));
    }
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', fail);
    void exited.then(() => fail(new Error(`FerretDB exited with code ${child.exitCode} before listening`)));
  });
  // Once it listens: its threads exist by then, and the ones it starts later take their creator's priority.
  if (niceness > 0 && child.pid !== undefined) lowerPriority(child.pid, niceness);
  // Keep draining its output so a chatty server never blocks on a full pipe.
  child.stdout.removeAllListeners('data');
  child.stderr.removeAllListeners('data');
  child.stdout.resume();
  child.stderr.on('data', (chunk: Buffer) => logger.debug({ ferretdb: chunk.toString('utf8').trim() }, 'ferretdb'));
  return { child, port: listening, exited };
}

/** Linux: `setpriv --pdeathsig KILL` makes the kernel kill the child when tally dies, however it dies. */
function withParentDeathSignal(binary: string, args: string[]): [string, string[]] {
  if (process.platform !== 'linux') return [binary, args];
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((candidate) => fs.existsSync(candidate));
  return setpriv ? [setpriv, ['--pdeathsig', 'KILL', '--', binary, ...args]] : [binary, args];
}

async function ferretdbBinary(): Promise<string> {
  const script = path.join(projectRoot(), 'scripts', 'ensure-ferretdb.js');
  const { stdout } = await promisify(execFile)(process.execPath, [script], { maxBuffer: 16 * 1024 * 1024 });
  const binary = stdout.trim().split('\n').pop();
  if (!binary || !fs.existsSync(binary))
    throw new Error(`FerretDB binary not available (script printed ${JSON.stringify(stdout)})`);
  return binary;
}
