/**
 * CPU cost per HTTP request of the rate limiter, side by side: the same in-process server (embedded
 * database, `{ serverInfo { version } }`, no database round trip) with RATE_LIMIT_PER_ADDRESS on and off.
 * Client and server share the process, so the numbers are CPU per request of both; the difference is the
 * limiter's. Prints numbers; no thresholds.   npm run build && node dist/bench/probes/rateLimitCost.js
 */
import { startApp } from '../../src/app';
import { loadConfig } from '../../src/config/loadConfig';
import { createLogger } from '../../src/logging/createLogger';
import { parseOptions } from '../shared/options';

const REQUESTS = 1500;
const ROUNDS = 3;

async function cpuPerRequest(url: string): Promise<number> {
  const body = JSON.stringify({ query: '{ serverInfo { version } }' });
  const post = (): Promise<unknown> =>
    fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) =>
      r.text(),
    );
  for (let i = 0; i < 100; i++) await post();
  const start = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i += 10) await Promise.all(Array.from({ length: 10 }, post));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / REQUESTS;
}

async function main(): Promise<void> {
  parseOptions(process.argv.slice(2), {});
  const logger = createLogger({ level: 'silent', nodeEnv: 'production' });
  const base = { NODE_ENV: 'production', PORT: '0', TALLY_DATA_DIR: '', LOG_LEVEL: 'silent' };
  const on = await startApp(loadConfig({ ...base, RATE_LIMIT_PER_ADDRESS: '1000000000' }), logger);
  const off = await startApp(loadConfig({ ...base, RATE_LIMIT_PER_ADDRESS: '0', RATE_LIMIT_PER_KEY: '0' }), logger);
  const samples = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    samples.off.push(await cpuPerRequest(off.url));
    samples.on.push(await cpuPerRequest(on.url));
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  process.stdout.write(
    `rate limiter off: ${median(samples.off).toFixed(1)} µs CPU/request\n` +
      `rate limiter on:  ${median(samples.on).toFixed(1)} µs CPU/request\n` +
      `difference:       ${(median(samples.on) - median(samples.off)).toFixed(1)} µs CPU/request\n`,
  );
  await on.close();
  await off.close();
}

void main();
