/**
 * The built `tally` command (`node dist/src/cli/main.js`, what the `bin` entry runs) as a child process, for
 * tests that kill or interrupt it (`npm test` builds first; check with assertBuilt() from serverProcess.ts).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

export interface CliChild {
  readonly process: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal), stdout and stderr. */
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** `env` is laid over the test's own environment; an undefined value removes that variable. */
export function startCliChild(args: readonly string[], env: Record<string, string | undefined> = {}): CliChild {
  const childEnv: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', ...env };
  for (const [key, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[key];
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'cli', 'main.js'), ...args], {
    cwd: ROOT,
    env: childEnv,
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
