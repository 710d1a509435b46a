/**
 * The soak benchmark's command line (bench/shared/options.ts parses it): how long, how fast (or find the rate with
 * a ramp), what traffic, where the report goes.
 */
import { parseOptions } from '../shared/options';
import type { ParsedOptions } from '../shared/options';

export const SOAK_OPTIONS = {
  /** Soak duration in minutes. */
  minutes: { kind: 'integer', default: 30 },
  /** Seconds between samples (latency percentiles, errors, heap after GC, RSS, event-loop delay). */
  'sample-seconds': { kind: 'integer', default: 60 },
  /** A fixed rate of recordHit requests per second: skips the ramp. */
  rate: { kind: 'integer', default: 0 },
  /** The ramp: first rate, growth per step (percent), seconds per step, highest rate tried. */
  'ramp-start': { kind: 'integer', default: 100 },
  'ramp-growth-percent': { kind: 'integer', default: 30 },
  'ramp-seconds': { kind: 'integer', default: 30 },
  'ramp-max': { kind: 'integer', default: 20_000 },
  /** The soak runs at this percentage of the highest rate that held. */
  'soak-percent': { kind: 'integer', default: 80 },
  /** Traffic: distinct pages (Zipf), percentage of hits with an idempotency key, dashboards per minute. */
  pages: { kind: 'integer', default: 1_000 },
  'keyed-percent': { kind: 'integer', default: 10, zero: true },
  'dashboards-per-minute': { kind: 'integer', default: 120 },
  /** Distinct visitors sent as `visitor` (issue 19); 0: the field is not sent. */
  visitors: { kind: 'integer', default: 0 },
  /** Send `referrer`, `userAgent` and `clientIp` with each hit (issue 20). */
  dimensions: { kind: 'flag' },
  /** Expired minute documents (and half as many expired idempotency keys) seeded before the start, for the sweeps. */
  expired: { kind: 'integer', default: 20_000 },
  /** Requests in flight at most; one more due is an error (the server did not keep up). */
  'max-in-flight': { kind: 'integer', default: 1_000 },
  'docs-dir': { kind: 'string', value: 'DIR', needs: 'the docs directory the report goes to' },
  'results-dir': { kind: 'string', value: 'DIR', needs: 'where the samples (JSON) go' },
  /**
   * When the server answers a recordHit: `log` (the embedded default: once durable in its ingest log, in a temporary
   * directory) or `database` (after the database write). The benchmark hands the server a MONGODB_URI, whose own
   * default would be `database`, so the mode is set explicitly.
   */
  'ingest-ack': { kind: 'choice', choices: ['log', 'database'], default: 'log' },
  /**
   * Sample the server's allocations that stay live (V8's sampling heap profiler) from the soak's start: profiles a
   * third of the way in and at the end go to the results directory (`.heapprofile`, for Chrome's DevTools), and the
   * log names the allocation sites that grew most between them. A diagnosis: it slows the server (p99 2–5× here).
   */
  'heap-profile': { kind: 'flag' },
  /** Extra environment for the server, e.g. `--server-env SECONDS_PREALLOCATE=true`. */
  'server-env': { kind: 'strings', value: 'NAME=VALUE' },
} as const;

export type SoakOptions = ParsedOptions<typeof SOAK_OPTIONS>;

export function parseSoakOptions(argv: readonly string[]): SoakOptions {
  const options = parseOptions(argv, SOAK_OPTIONS);
  for (const pair of options['server-env']) {
    if (!/^[A-Z_][A-Z0-9_]*=/.test(pair)) throw new Error(`--server-env needs NAME=VALUE, got ${JSON.stringify(pair)}`);
  }
  if (options['keyed-percent'] > 100) throw new Error(`--keyed-percent needs 0–100, got ${options['keyed-percent']}`);
  if (options['soak-percent'] > 100) throw new Error(`--soak-percent needs 1–100, got ${options['soak-percent']}`);
  return options;
}

/** `--server-env` as an environment: NAME → VALUE. */
export function serverEnv(options: SoakOptions): Record<string, string> {
  return Object.fromEntries(options['server-env'].map((pair) => pair.split(/=(.*)/s).slice(0, 2)));
}
