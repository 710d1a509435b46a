/**
 * The ingest stack of one tally process (group commit, ledger, exactly-once retries) over a fault-injecting
 * wrapper of a real database, with a clock the test moves: what the exactly-once tests drive.
 */
import { createFlushWriter } from '../../src/ingest/createFlushWriter';
import { GroupCommitter } from '../../src/ingest/GroupCommitter';
import { HitIngest } from '../../src/ingest/HitIngest';
import { KeyedRequests } from '../../src/ingest/KeyedRequests';
import type { Database } from '../../src/store/connectDatabase';
import { CounterBatch } from '../../src/store/CounterBatch';
import { CounterStore } from '../../src/store/CounterStore';
import { RequestLedger } from '../../src/store/requestLedger';
import { faultyDatabase, Faults } from './faultyDatabase';

export const LEASE_MS = 1_000;
const RETENTION_MS = 48 * 3_600_000;

export interface Stack {
  readonly ingest: HitIngest;
  readonly faults: Faults;
  readonly committer: GroupCommitter;
  clock: { now: number };
}

export function exactlyOnceStack(
  database: Database,
  clock: { now: number },
  options: { waitMs?: number; intervalMs?: number } = {},
): Stack {
  const faults = new Faults();
  const faulty = faultyDatabase(database, faults);
  const counters = new CounterStore(faulty, { secondsRetentionMs: RETENTION_MS });
  const ledger = new RequestLedger(faulty.db, { windowMs: 24 * 3_600_000 });
  const now = () => clock.now;
  const newBatch = () => new CounterBatch({ seconds: { now: now(), retentionMs: RETENTION_MS } });
  const committer = new GroupCommitter(createFlushWriter({ counters, ledger, clock: now, leaseMs: LEASE_MS }), {
    intervalMs: options.intervalMs ?? 0,
    concurrency: 1,
    maxPendingDocuments: 5_000,
    newBatch,
  });
  const keyed = new KeyedRequests({
    committer,
    ledger,
    counters,
    newBatch,
    clock: now,
    leaseMs: LEASE_MS,
    waitMs: options.waitMs ?? 0,
    pollMs: 10,
  });
  const ingest = new HitIngest({
    committer,
    keyed,
    clock: now,
    limits: { maxBatchSize: 10_000, maxCount: 1_000_000, maxClockSkewMs: 300_000 },
  });
  return { ingest, faults, committer, clock };
}
