/**
 * Runs the built server (`node dist/src/main.js`, what `npm start` runs) as a child process, the way a person
 * does: its own embedded database in a data directory, configuration by environment, JSON log lines on stdout.
 * For test/process: promises about the process itself (restart, signals, database faults) that an in-process app
 * cannot show.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/projectRoot';

export interface LogLine {
  readonly level?: number;
  readonly msg?: string;
  readonly [key: string]: unknown;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly logs: LogLine[];
  /** Everything the process printed that was not a JSON log line (stderr included). */
  readonly output: string[];
  /** Set once the process logged that it serves GraphQL. */
  url: string | undefined;
  waitForLog(predicate: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
  graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    timeoutMs?: number,
  ): Promise<GraphqlReply<T>>;
  /** The embedded FerretDB's pid, from the log. */
  ferretdbPid(): number;
}

export interface GraphqlReply<T> {
  readonly status: number;
  readonly body: { data?: T | null; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

const MAIN = path.join(projectRoot(), 'dist', 'src', 'main.js');

/** Fails clearly when the build is missing or older than the sources (npm test builds first). */
export function assertBuilt(): void {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first (npm test does)`);
  const built = fs.statSync(MAIN).mtimeMs;
  const newer = (fs.readdirSync(path.join(projectRoot(), 'src'), { recursive: true }) as string[])
    .map((entry) => path.join(projectRoot(), 'src', entry))
    .find((file) => file.endsWith('.ts') && fs.statSync(file).mtimeMs > built);
  if (newer) throw new Error(`${newer} is newer than the build: run \`npm run build\` first (npm test does)`);
}

export function temporaryDataDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `tally-process-${label}-`));
}

const TEST_ONLY_ENV = ['MONGODB_URI', 'NODE_ENV', 'TALLY_TEST_ENGINE', 'TALLY_TEST_ATOMIC_UPDATES', 'JEST_WORKER_ID'];

export function startServer(env: Record<string, string>, options: { command?: string[] } = {}): ServerProcess {
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    // The jest run's own database and test settings must not leak into the server under test.
    if (value !== undefined && !TEST_ONLY_ENV.includes(key)) {
      childEnv[key] = value;
    }
  }
  // Tests that read right after they write want read-your-writes; the ingest log's own tests (ingestLog*.test.ts)
  // and anything else that sets INGEST_ACK run the embedded default's log path.
  Object.assign(childEnv, { PORT: '0', LOG_LEVEL: 'info', NODE_ENV: 'development', INGEST_ACK: 'database' }, env);
  const [command, ...args] = options.command ?? [process.execPath, MAIN];
  const child = spawn(command as string, args, {
    cwd: projectRoot(),
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogLine[] = [];
  const output: string[] = [];
  const watchers: Array<() => void> = [];
  const onLine = (line: string): void => {
    try {
      const parsed = JSON.parse(line) as LogLine;
      logs.push(parsed);
      if (typeof parsed.url === 'string' && /^(listening|tally is serving GraphQL)/.test(parsed.msg ?? '')) {
        server.url = parsed.url.replace(/\/graphql$/, '');
      }
    } catch {
      output.push(line);
    }
    watchers.forEach((watch) => watch());
  };
  for (const stream of [child.stdout, child.stderr]) {
    let buffer = '';
    stream?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      lines.forEach(onLine);
    });
  }
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      resolve(code ?? signal ?? 'unknown');
      watchers.forEach((watch) => watch());
    }),
  );
  const server: ServerProcess = {
    child,
    logs,
    output,
    url: undefined,
    exited,
    waitForLog(predicate, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const found = logs.find(predicate);
          if (found) {
            cleanup();
            resolve(found);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            cleanup();
            reject(new Error(`server exited before the awaited log line; output:\n${output.join('\n')}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no such log line within ${timeoutMs} ms; last lines:\n${tail(logs, output)}`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          const index = watchers.indexOf(check);
          if (index >= 0) watchers.splice(index, 1);
        };
        watchers.push(check);
        check();
      });
    },
    async graphql(query, variables, timeoutMs = 30_000) {
      if (!server.url) throw new Error('the server is not serving yet');
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: response.status, body: (await response.json()) as GraphqlReply<never>['body'] };
    },
    ferretdbPid() {
      const started = [...logs].reverse().find((line) => /embedded FerretDB (re)?started/.test(line.msg ?? ''));
      if (typeof started?.pid !== 'number') throw new Error('no embedded FerretDB pid in the log');
      return started.pid;
    },
  };
  return server;
}

export async function waitUntilServing(server: ServerProcess): Promise<string> {
  await server.waitForLog((line) => line.msg === 'tally is serving GraphQL');
  return server.url as string;
}

/** Sends `signal` and waits for the exit; kills hard (and fails) if it does not come within `timeoutMs`. */
export async function stopWith(
  server: ServerProcess,
  signal: NodeJS.Signals,
  timeoutMs = 20_000,
): Promise<number | string> {
  server.child.kill(signal);
  const timer = setTimeout(() => server.child.kill('SIGKILL'), timeoutMs);
  const code = await server.exited;
  clearTimeout(timer);
  return code;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Linux keeps a nice value per thread, readable in /proc (threadNiceness); elsewhere there is nothing to read. */
export const THREAD_NICENESS_READABLE = fs.existsSync('/proc/self/task');

/** The nice value of each thread of `pid` (field 19 of /proc/<pid>/task/<tid>/stat; Linux). */
export function threadNiceness(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: count fields after its closing one (field 3 on).
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19 - 3]);
  });
}

/** Every process below `pid`, from /proc (Linux). */
export function descendantPids(pid: number): number[] {
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    let children: number[] = [];
    try {
      children = fs
        .readdirSync(`/proc/${parent}/task`)
        .flatMap((task) => fs.readFileSync(`/proc/${parent}/task/${task}/children`, 'utf8').trim().split(/\s+/))
        .filter((entry) => entry !== '')
        .map(Number);
    } catch {
      // The process is gone.
    }
    found.push(...children);
    queue.push(...children);
  }
  return found;
}

function tail(logs: readonly LogLine[], output: readonly string[]): string {
  return [...logs.slice(-8).map((line) => JSON.stringify(line)), ...output.slice(-8)].join('\n');
}
