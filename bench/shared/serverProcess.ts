/**
 * The tally server under test. The benchmark proper runs it as a child process (`node dist/src/main.js`) on
 * a free loopback port, so the load generator and the server never share an event loop or a CPU budget
 * line; the smoke test may run it in-process instead. CPU time and command counts come from its /metrics.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { startApp } from '../../src/app';
import { loadConfig } from '../../src/config/loadConfig';
import { createLogger } from '../../src/logging/createLogger';
import { projectRoot } from '../../src/projectRoot';
import { watchChild } from './watchChild';

export interface ServerHandle {
  readonly url: string;
  readonly kind: 'child' | 'in-process';
  /** The child's process id (its CPU, and that of the processes it started, can be read from /proc). */
  readonly pid?: number;
  stop(): Promise<void>;
}

export interface ServerSettings {
  /** MONGODB_URI; absent: the server starts its embedded database, as `npm start` does (TALLY_DATA_DIR in `env`). */
  readonly uri: string | undefined;
  readonly dbName: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Options for the child's node, e.g. `--cpu-prof` (not allowed in NODE_OPTIONS). */
  readonly nodeArgs?: readonly string[];
  /** The server's entry point (default: this checkout's dist/src/main.js), e.g. another checkout's build. */
  readonly entry?: string;
  /** The port to listen on (default: a free one). */
  readonly port?: number;
}

const READY_TIMEOUT_MS = 60_000;

export async function startServer(kind: 'child' | 'in-process', settings: ServerSettings): Promise<ServerHandle> {
  const port = settings.port ?? (await freePort());
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    // Empty rather than absent, so a MONGODB_URI in the benchmark's own environment does not leak into the child.
    MONGODB_URI: settings.uri ?? '',
    MONGODB_DB: settings.dbName,
    LOG_LEVEL: 'warn',
    // Benchmarks measure throughput from one address; the rate limiter would measure itself.
    RATE_LIMIT_PER_ADDRESS: '0',
    ...settings.env,
  };
  const url = `http://127.0.0.1:${port}`;
  if (kind === 'in-process') {
    const app = await startApp(loadConfig(env), createLogger({ level: 'warn', nodeEnv: 'production' }));
    return { url, kind, stop: () => app.close() };
  }
  const entry = settings.entry ?? path.join(projectRoot(), 'dist', 'src', 'main.js');
  const child = spawn(process.execPath, [...(settings.nodeArgs ?? []), entry], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const watched = watchChild(child);
  try {
    await waitUntilReady(url, () => child.exitCode !== null);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}; server output:\n${watched.output()}`);
  }
  return { url, kind, ...(child.pid === undefined ? {} : { pid: child.pid }), stop: watched.stop };
}

async function waitUntilReady(url: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited()) throw new Error('the tally server exited before it was ready');
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the tally server was not ready within ${READY_TIMEOUT_MS} ms`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
