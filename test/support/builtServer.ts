/**
 * Runs the built server (`node dist/src/main.js`, as the README does) as a child process on PORT=0 and reads
 * its URL from its JSON log. Builds first when dist/ is older than src/. For process-level promises: a test can
 * SIGKILL it mid-flush or run two of them against one database.
 */
import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const ENTRY = path.join(ROOT, 'dist', 'src', 'main.js');
const READY_TIMEOUT_MS = 60_000;

export interface BuiltServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it logged so far. */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

export function ensureBuilt(): void {
  const newest = (dir: string): number =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .reduce(
        (max, e) =>
          Math.max(max, e.isDirectory() ? newest(path.join(dir, e.name)) : fs.statSync(path.join(dir, e.name)).mtimeMs),
        0,
      );
  if (fs.existsSync(ENTRY) && fs.statSync(ENTRY).mtimeMs >= newest(path.join(ROOT, 'src'))) return;
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT });
}

export async function startBuiltServer(env: Record<string, string>): Promise<BuiltServer> {
  const child = spawn(process.execPath, [ENTRY], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let url: string | undefined;
  while (!url) {
    const line = output.split('\n').find((l) => l.includes('tally is serving GraphQL'));
    if (line) url = (JSON.parse(line) as { url: string }).url;
    else if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the built server did not start:\n${output.slice(-3000)}`);
    } else await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    child,
    output: () => output,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** POSTs a GraphQL operation; network errors (a killed server) reject. */
export async function postGraphql(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as never;
}
