/**
 * Starts FerretDB 1.24.2 on its SQLite backend, listening on a free loopback port.
 * Telemetry and the debug listener are off so the process makes no outbound calls.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../../logging/createLogger';
import type { EmbeddedDatabase } from './EmbeddedDatabase';
import { projectRoot } from '../../projectRoot';

const STARTUP_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

export async function startFerretdb(options: {
  dataDir: string | undefined;
  logger: Logger;
}): Promise<EmbeddedDatabase> {
  const binary = await ferretdbBinary();
  const temporary = options.dataDir === undefined;
  const dir = temporary
    ? fs.mkdtempSync(path.join(os.tmpdir(), 'tally-ferretdb-data-'))
    : path.resolve(options.dataDir as string, 'ferretdb');
  fs.mkdirSync(dir, { recursive: true });

  const child = spawn(
    binary,
    [
      '--handler=sqlite',
      // FerretDB wants a directory URL ending in "/". synchronous(normal): in WAL mode a commit is durable
      // against a crash of the process (not of the machine) without an fsync per write, which is what MongoDB's
      // default write concern promises too; FULL cost an fsync per updated document.
      `--sqlite-url=file:${dir}/?_pragma=synchronous(normal)`,
      '--listen-addr=127.0.0.1:0',
      '--telemetry=disable',
      '--state-dir=-',
      '--debug-addr=-',
    ],
    { env: { ...process.env, DO_NOT_TRACK: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );

  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
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
    void exited.then((code) => fail(new Error(`FerretDB exited with code ${code} before listening`)));
  });
  // Keep draining its output so a chatty server never blocks on a full pipe.
  child.stdout.resume();
  child.stderr.on('data', (chunk: Buffer) =>
    options.logger.debug({ ferretdb: chunk.toString('utf8').trim() }, 'ferretdb'),
  );

  options.logger.info({ port, dataDir: temporary ? '(temporary)' : dir }, 'embedded FerretDB started');
  let stopping: Promise<void> | undefined;
  return {
    uri: `mongodb://127.0.0.1:${port}/`,
    engine: 'ferretdb',
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null) {
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

async function ferretdbBinary(): Promise<string> {
  const script = path.join(projectRoot(), 'scripts', 'ensure-ferretdb.js');
  const { stdout } = await promisify(execFile)(process.execPath, [script], { maxBuffer: 16 * 1024 * 1024 });
  const binary = stdout.trim().split('\n').pop();
  if (!binary || !fs.existsSync(binary))
    throw new Error(`FerretDB binary not available (script printed ${JSON.stringify(stdout)})`);
  return binary;
}
