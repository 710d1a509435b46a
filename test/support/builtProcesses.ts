/**
 * The built tally as child processes, the way the README runs it: `npm run build` output is rebuilt when any
 * source is newer, then `node dist/src/main.js` (the server) and `node dist/src/cli/main.js` (the CLI) start
 * with their own environment and are killed by the test.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/projectRoot';

const root = projectRoot();

function newestMtime(dir: string, ext: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full, ext));
    else if (entry.name.endsWith(ext)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Runs `tsc -p tsconfig.build.json` unless dist/ is newer than every source file. */
export function ensureBuilt(): void {
  const built = ['dist/src/main.js', 'dist/src/cli/main.js'].map((file) => {
    try {
      return statSync(path.join(root, file)).mtimeMs;
    } catch {
      return 0;
    }
  });
  const sources = Math.max(
    newestMtime(path.join(root, 'src'), '.ts'),
    statSync(path.join(root, 'package.json')).mtimeMs,
  );
  if (Math.min(...built) > sources) return;
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
}

export interface ServerChild {
  readonly graphqlUrl: string;
  readonly metricsUrl: string;
  stop(): Promise<void>;
}

/** Starts `node dist/src/main.js` on a free port (PORT=0) and resolves with its URL from the start-up log line. */
export async function startServerChild(env: Record<string, string>): Promise<ServerChild> {
  const child = spawn(process.execPath, [path.join(root, 'dist/src/main.js')], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server not serving within 60 s:\n${output}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)\/graphql"/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    graphqlUrl: `${url}/graphql`,
    metricsUrl: `${url}/metrics`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface CliChild {
  readonly process: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal), stdout and stderr. */
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

export function startCliChild(args: readonly string[]): CliChild {
  const child = spawn(process.execPath, [path.join(root, 'dist/src/cli/main.js'), ...args], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { process: child, done };
}

/** The value of one Prometheus sample (0 when absent). */
export async function readMetric(metricsUrl: string, sample: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line ? Number(line.split(' ').pop()) : 0;
}
