/**
 * Opens the MongoClient: waits for the server (with backoff), detects the engine and derives the write policy first
 * (WritePolicy: a single-writer engine gets a main client of policy.mainConnections, plus one connection per
 * collection written through `writerDb` where the policy says so), bounds every operation by `timeoutMs` so a frozen
 * server gives an error instead of a hang, reports every command sent to `onCommand` (the metrics counter of round
 * trips), fails a command written to a connection that died under it instead of letting it wait for ever
 * (failWritesToClosedSockets), and answers readiness from a separate connection, so a busy or frozen main connection
 * never makes /readyz itself hang. Background reads (the expiry sweeps' scans) get a connection of their own on a
 * single-writer engine, so no flush waits behind them.
 */
import { MongoClient } from 'mongodb';
import type { Db, MongoClientOptions } from 'mongodb';
import type { Logger } from '../logging/createLogger';
import { detectEngine } from './EngineInfo';
import { failWritesToClosedSockets } from './failWritesToClosedSockets';
import type { EngineInfo } from './EngineInfo';
import { writePolicyFor } from './WritePolicy';
import type { WritePolicy, WritePolicyOverrides } from './WritePolicy';

export interface Database {
  readonly client: MongoClient;
  readonly db: Db;
  readonly engine: EngineInfo;
  /** How to write to this server: what the stores and the hit pipeline follow. */
  readonly policy: WritePolicy;
  /**
   * The Db to write `collection` through. Where the policy gives each collection a writer of its own (FerretDB 1.x
   * updates read, modify and write a document without a lock), that is a single-connection client per collection:
   * writes to one collection stay one at a time, while a flush's collections are written concurrently. Elsewhere
   * it is `db`.
   */
  writerDb(collection: string): Db;
  /**
   * The Db background work reads through (expiry sweeps looking for expired ids). Where the policy has a single
   * writer, a single-connection client of its own, opened on first use: a scan that takes seconds there never holds
   * the main connection (dashboards, the ledger) or a collection's writer (flushes). Only ever read through: FerretDB
   * allows one writer per collection, and the sweeps delete through the collection's writer. Elsewhere it is `db`.
   */
  backgroundDb(): Db;
  /** True when the server answers a ping within the readiness timeout; never throws, never waits longer. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  readonly uri: string;
  readonly dbName: string;
  readonly logger: Logger;
  readonly onCommand?: (commandName: string) => void;
  readonly appName?: string;
  /** Longest any one database operation may take (socket reads, pool waits, server selection). */
  readonly timeoutMs?: number;
  /** Stops waiting for the server (shutdown during start-up). */
  readonly signal?: AbortSignal;
  /** What configuration (DOCUMENT_TARGETING) or a test changes in the engine's write policy. */
  readonly policy?: WritePolicyOverrides | undefined;
}

export const DEFAULT_DATABASE_TIMEOUT_MS = 5_000;
const READY_TIMEOUT_MS = 1_000;
const WAIT_FIRST_DELAY_MS = 250;
const WAIT_MAX_DELAY_MS = 5_000;

export async function connectDatabase(options: ConnectOptions): Promise<Database> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS;
  if (!failWritesToClosedSockets()) {
    options.logger.warn(
      'the MongoDB driver changed: writes to a closed connection are not guarded; a flush may wait until its deadline',
    );
  }
  const engine = await waitForEngine(options, timeoutMs);
  const policy = writePolicyFor(engine, options.policy);
  const client = new MongoClient(options.uri, {
    appName: options.appName ?? 'tally',
    monitorCommands: options.onCommand !== undefined,
    ...timeouts(timeoutMs),
    ...(policy.mainConnections !== undefined ? { maxPoolSize: policy.mainConnections, minPoolSize: 1 } : {}),
  });
  if (options.onCommand) {
    const onCommand = options.onCommand;
    client.on('commandStarted', (event) => onCommand(event.commandName));
  }
  const health = new MongoClient(options.uri, {
    appName: `${options.appName ?? 'tally'}-health`,
    maxPoolSize: 1,
    ...timeouts(READY_TIMEOUT_MS),
  });
  try {
    await client.connect();
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  options.logger.info(
    { engine: engine.name, version: engine.version, policy },
    `connected to ${engine.name} ${engine.version}`,
  );
  const db = client.db(options.dbName);
  const writers = new Map<string, MongoClient>();
  const writerDb = (collection: string): Db => {
    if (!policy.writerPerCollection) return db;
    let writer = writers.get(collection);
    if (!writer) {
      writer = singleConnection(options, 'writer', timeoutMs);
      writers.set(collection, writer);
    }
    return writer.db(options.dbName);
  };
  let background: MongoClient | undefined;
  const backgroundDb = (): Db => {
    if (!policy.singleWriter) return db;
    background ??= singleConnection(options, 'background', timeoutMs);
    return background.db(options.dbName);
  };
  return {
    client,
    db,
    engine,
    policy,
    writerDb,
    backgroundDb,
    async ping() {
      try {
        await health.db('admin').command({ ping: 1 });
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      const others = [...writers.values(), ...(background ? [background] : [])];
      await Promise.all([client.close(), health.close(), ...others.map((other) => other.close())]);
    },
  };
}

/** A client of one connection, counting its commands like the main one. */
function singleConnection(options: ConnectOptions, role: string, timeoutMs: number): MongoClient {
  // The driver connects on its first operation; its errors surface there, as the main client's would.
  const client = new MongoClient(options.uri, {
    appName: `${options.appName ?? 'tally'}-${role}`,
    monitorCommands: options.onCommand !== undefined,
    ...timeouts(timeoutMs),
    maxPoolSize: 1,
  });
  const onCommand = options.onCommand;
  if (onCommand) client.on('commandStarted', (event) => onCommand(event.commandName));
  return client;
}

function timeouts(ms: number): MongoClientOptions {
  return {
    serverSelectionTimeoutMS: ms,
    connectTimeoutMS: ms,
    socketTimeoutMS: ms,
    waitQueueTimeoutMS: ms,
  };
}

/** Probes the server until it answers, with exponential backoff; logs while it waits. */
async function waitForEngine(options: ConnectOptions, timeoutMs: number): Promise<EngineInfo> {
  let delay = WAIT_FIRST_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      return await probeEngine(options.uri, timeoutMs);
    } catch (error) {
      options.signal?.throwIfAborted();
      options.logger.warn(
        { attempt, retryInMs: delay, reason: error instanceof Error ? error.message.split('\n')[0] : String(error) },
        'database not reachable yet; waiting for it',
      );
      await abortableSleep(delay, options.signal);
      delay = Math.min(WAIT_MAX_DELAY_MS, delay * 2);
    }
  }
}

async function probeEngine(uri: string, timeoutMs: number): Promise<EngineInfo> {
  const probe = new MongoClient(uri, { maxPoolSize: 1, ...timeouts(Math.min(timeoutMs, 2_000)) });
  try {
    await probe.connect();
    return detectEngine(await probe.db('admin').command({ buildInfo: 1 }));
  } finally {
    await probe.close().catch(() => undefined);
  }
}

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted(): void {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
