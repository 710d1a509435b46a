/**
 * A child process the benchmark started (the tally server, GoatCounter): the tail of what it printed, for the error
 * when it fails to start, and a stop that asks first (SIGTERM) and insists after 10 s (SIGKILL).
 */
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface WatchedChild {
  /** The last 4,000 characters of its stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

const STOP_TIMEOUT_MS = 10_000;

export function watchChild(child: ChildProcessByStdio<null, Readable, Readable>): WatchedChild {
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
