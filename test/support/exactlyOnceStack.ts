/**
 * The hit pipeline of one tally process (openHitPipeline: group commit, ledger, exactly-once retries) over a
 * fault-injecting wrapper of a real database, with a clock the test moves: what the exactly-once tests drive.
 * Settings are the production defaults (loadConfig's: INGEST_FLUSH_CONCURRENCY as the write policy caps it, site
 * totals and second-level counters on); only the idempotency lease, wait and poll are test-sized, and visits are off unless asked for.
 */
import { loadConfig } from '../../src/config/loadConfig';
import type { HitIngest } from '../../src/ingest/HitIngest';
import { openHitPipeline } from '../../src/ingest/openHitPipeline';
import { createLogger } from '../../src/logging/createLogger';
import type { Database } from '../../src/store/connectDatabase';
import { faultyDatabase, Faults } from './faultyDatabase';
import { connectTestDatabase } from './testDatabase';
import type { TestDatabase } from './testDatabase';

export const LEASE_MS = 1_000;
/** A retry of a key in progress polls the ledger this often (production: 200 ms). */
const POLL_MS = 10;

/**
 * How the pipeline meets the test server, each a case of every exactly-once test:
 * - `production defaults`: the engine's own write policy. On MongoDB INGEST_FLUSH_CONCURRENCY (4) flushes in flight
 *   over the pool; on FerretDB one flush in flight, its collections written concurrently, each over a connection
 *   of its own.
 * - `four flushes in flight`: MongoDB's default concurrency on any engine. On FerretDB each collection's writes
 *   still queue on that collection's single connection (and the ledger's on the main one), so no two updates of
 *   one document overlap there: what four concurrent flushes mean on FerretDB.
 * - `one connection`: everything over one connection, one flush in flight (stock FerretDB's layout), on any engine.
 */
export const SETUPS = ['production defaults', 'four flushes in flight', 'one connection'] as const;
export type Setup = (typeof SETUPS)[number];

export async function connectSetupDatabase(label: string, setup: Setup): Promise<TestDatabase> {
  if (setup === 'one connection') return connectTestDatabase(label, { singleConnection: true });
  const database = await connectTestDatabase(label);
  if (setup === 'production defaults') return database;
  return { ...database, policy: { ...database.policy, maxFlushesInFlight: undefined } };
}

export interface Stack {
  readonly ingest: HitIngest;
  readonly faults: Faults;
  clock: { now: number };
}

export async function exactlyOnceStack(
  database: Database,
  clock: { now: number },
  options: {
    /** IDEMPOTENCY_WAIT_MS: how long a retry waits for a key in progress (default 0: it is answered at once). */
    waitMs?: number;
    /** Visits on (default off: the hit counters' oracle has none). */
    visits?: boolean;
  } = {},
): Promise<Stack> {
  const faults = new Faults();
  const defaults = loadConfig({ NODE_ENV: 'test' });
  const settings = {
    ...defaults,
    idempotency: { ...defaults.idempotency, leaseMs: LEASE_MS, waitMs: options.waitMs ?? 0 },
    // The hit counters' oracle (storedCounters) has no visits; theirs is test/integration/visits.test.ts and
    // test/process/visits.test.ts (keyed retries, torn windows, replays, SIGKILL), against a sessionisation.
    visits: { ...defaults.visits, enabled: options.visits ?? false },
  };
  const pipeline = await openHitPipeline(faultyDatabase(database, faults), settings, {
    clock: () => clock.now,
    logger: createLogger({ level: 'silent', nodeEnv: 'test' }),
    pollMs: POLL_MS,
  });
  return { ingest: pipeline.ingest, faults, clock };
}
