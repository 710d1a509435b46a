/**
 * Runs every section of `npm run bench` against one database target (and, for ingest, a second FerretDB build) and
 * returns what it measured. A failing section is recorded and the others still run, so one engine gap never hides
 * the rest.
 */
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/projectRoot';
import { MonitoredClient } from '../shared/MonitoredClient';
import { startServer } from '../shared/serverProcess';
import { stockFerretdbBinary } from '../shared/stockFerretdb';
import { openTarget } from '../shared/target';
import type { DatabaseTarget } from '../shared/target';
import type { BenchOptions } from './BenchOptions';
import type { BenchResults } from './BenchResults';
import { writePolicyFor } from '../../src/store/WritePolicy';
import type { AudienceIngestResult } from './audienceIngest';
import { runAudienceIngest } from './audienceIngest';
import type { AudienceQueryResult } from './audienceQueries';
import { runAudienceQueries } from './audienceQueries';
import type { AudienceStorageResult } from './audienceStorage';
import { runAudienceStorage } from './audienceStorage';
import type { IdempotencyResult } from './idempotency';
import { runIdempotency } from './idempotency';
import type { IngestResult, IngestTarget } from './ingest';
import { runIngest } from './ingest';
import type { QueryResult } from './queries';
import { runQueries } from './queries';
import { runStamp } from './runStamp';
import type { SchemaGrowthResult } from './schemaGrowth';
import { runSchemaGrowth } from './schemaGrowth';
import { sizesFor } from './sizes';
import type { StorageResult } from './storage';
import { runStorage } from './storage';
import type { VisitorAccuracyResult } from './visitorAccuracy';
import { GOATCOUNTER_VERSION, ensureGoatcounter } from '../peer/buildGoatcounter';
import { startGoatcounterPeer } from '../peer/GoatcounterPeer';
import { startTallyPeer } from '../peer/TallyPeer';
import type { PeerResult } from './peer';
import { runPeer } from './peer';
import { runVisitorAccuracy } from './visitorAccuracy';

export async function runSections(options: BenchOptions, log: (line: string) => void): Promise<BenchResults> {
  const started = new Date();
  const stamp = runStamp(started.toISOString());
  const target = await openTarget({
    uri: process.env.MONGODB_URI || undefined,
    ferretdbBinary: options.ferretdbBinary,
  });
  log(`engine: ${target.description}${target.binary ? ` (${target.binary})` : ''}`);
  let comparison: DatabaseTarget | undefined;
  try {
    if (options.compareFerretdb !== undefined) {
      const binary = options.compareFerretdb === 'stock' ? await stockFerretdbBinary() : options.compareFerretdb.binary;
      comparison = await openTarget({ ferretdbBinary: binary });
      log(`compared with: ${comparison.description} (${binary}), ingest section only`);
    }
  } catch (error) {
    await target.stop();
    throw error;
  }
  const sizes = sizesFor(options.mode, target.engine.name);
  const dbPrefix = `bench_${stamp}`;
  const clients: MonitoredClient[] = [];
  const connect = async (uri: string, maxPoolSize: number): Promise<MonitoredClient> => {
    const client = await new MonitoredClient(uri, { maxPoolSize }).connect();
    clients.push(client);
    return client;
  };
  const failures: BenchResults['failures'] = [];
  const attempt = async <T>(section: string, fn: () => Promise<T>): Promise<T | undefined> => {
    // `--only NAME` runs the sections whose title contains NAME.
    if (options.only && !options.only.some((name) => section.includes(name))) return undefined;
    log(`${section}…`);
    const began = Date.now();
    try {
      const result = await fn();
      log(`  (${section.replace(/ .*/, '')} took ${((Date.now() - began) / 1000).toFixed(0)} s)`);
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failures.push({ section, error: message.split('\n')[0] as string });
      log(`  FAILED: ${message}`);
      return undefined;
    }
  };

  let schemaGrowth: SchemaGrowthResult | undefined;
  let ingest: IngestResult | undefined;
  let queries: QueryResult | undefined;
  let storage: StorageResult | undefined;
  let idempotency: IdempotencyResult | undefined;
  let audienceIngest: AudienceIngestResult | undefined;
  let audienceStorage: AudienceStorageResult | undefined;
  let audienceQueries: AudienceQueryResult | undefined;
  let visitorAccuracy: VisitorAccuracyResult | undefined;
  let peer: PeerResult | undefined;
  const ingestTargets: IngestTarget[] = [];
  try {
    // FerretDB applies updates without a lock: one connection, one write in flight (as the server does).
    const monitored = await connect(target.uri, target.engine.requiresSingleWriter ? 1 : 10);
    const rawClient = await connect(target.uri, 10);
    const ingestTarget = async (role: IngestTarget['role'], on: DatabaseTarget): Promise<IngestTarget> => {
      const client = role === 'primary' ? monitored : await connect(on.uri, on.engine.requiresSingleWriter ? 1 : 10);
      return {
        role,
        engine: on.label,
        db: client.db(`${dbPrefix}_ingest`),
        monitored: client,
        rawClient: role === 'primary' ? rawClient : await connect(on.uri, 10),
        startServer: (dbName, env) => startServer(options.server, { uri: on.uri, dbName, env }),
        databaseCpuSeconds: () => on.cpuSeconds(),
      };
    };
    ingestTargets.push(await ingestTarget('primary', target));
    if (comparison) ingestTargets.push(await ingestTarget('comparison', comparison));

    schemaGrowth = await attempt('1. schema growth (seed 004)', () =>
      runSchemaGrowth(monitored.db(`${dbPrefix}_growth`), sizes.schemaGrowth),
    );
    ingest = await attempt('2. ingest', () => runIngest({ targets: ingestTargets, sizes: sizes.ingest, log }));
    queries = await attempt('3. queries', () =>
      runQueries({
        db: monitored.db(`${dbPrefix}_queries`),
        monitored,
        loadDb: rawClient.db(`${dbPrefix}_queries`),
        engine: target.engine,
        sizes: sizes.queries,
        startServer: () => startServer(options.server, { uri: target.uri, dbName: `${dbPrefix}_queries` }),
        log,
      }),
    );
    storage = await attempt('4. storage', async () => runStorage(queries));
    idempotency = await attempt('6. idempotency', () =>
      runIdempotency({
        db: monitored.db(`${dbPrefix}_idempotency`),
        sizes: sizes.ingest,
        startServer: (dbName) => startServer(options.server, { uri: target.uri, dbName }),
        log,
      }),
    );
    const serverOn = (dbName: string, env: Record<string, string> = {}) =>
      startServer(options.server, { uri: target.uri, dbName, env });
    audienceIngest = await attempt('7. ingest with visitors and dimensions', () =>
      runAudienceIngest({
        engine: target.label,
        sizes: sizes.audience,
        dbName: (suffix) => `${dbPrefix}_${suffix}`,
        startServer: serverOn,
        databaseCpuSeconds: () => target.cpuSeconds(),
        log,
      }),
    );
    audienceStorage = await attempt('8. storage of visitors and dimensions', () =>
      runAudienceStorage({
        db: monitored.db(`${dbPrefix}_aud_storage`),
        engine: target.label,
        targeting: writePolicyFor(target.engine).targeting,
        sizes: sizes.audience,
        log,
      }),
    );
    audienceQueries = await attempt('9. queries of visitors and breakdowns', () =>
      runAudienceQueries({
        db: monitored.db(`${dbPrefix}_aud_queries`),
        engine: target.label,
        sizes: sizes.audience,
        startServer: (env) => serverOn(`${dbPrefix}_aud_queries`, env),
        log,
      }),
    );
    visitorAccuracy = await attempt('10. visitor accuracy', () =>
      runVisitorAccuracy({
        engine: target.label,
        sizes: sizes.audience,
        startServer: () => serverOn(`${dbPrefix}_aud_accuracy`),
        log,
      }),
    );
    // Needs Go and a C compiler for its first run (GoatCounter is built once): not in smoke mode unless named.
    if (options.mode !== 'smoke' || options.only)
      peer = await attempt(`11. peer: side by side with GoatCounter ${GOATCOUNTER_VERSION}`, () => {
        const binary = ensureGoatcounter(log);
        return runPeer({
          hits: options.peerHits ?? sizes.peer.hits,
          queryRounds: sizes.peer.queryRounds,
          start: { tally: startTallyPeer, goatcounter: () => startGoatcounterPeer(binary) },
          log,
        });
      });
  } finally {
    for (const client of clients.slice(0, 1).concat(ingestTargets.slice(1).map((t) => t.monitored))) {
      await dropRunDatabases(client, dbPrefix);
    }
    for (const client of clients) await client.close();
    await comparison?.stop();
    await target.stop();
  }

  return {
    formatVersion: 2,
    mode: options.mode,
    startedAt: started.toISOString(),
    durationMs: Date.now() - started.getTime(),
    engine: engineOf(target),
    ...(comparison ? { comparisonEngine: engineOf(comparison) } : {}),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
    },
    server: options.server,
    command: commandOf(options),
    ...(schemaGrowth ? { schemaGrowth } : {}),
    ...(ingest ? { ingest } : {}),
    ...(queries ? { queries } : {}),
    ...(storage ? { storage } : {}),
    ...(idempotency ? { idempotency } : {}),
    ...(audienceIngest ? { audienceIngest } : {}),
    ...(audienceStorage ? { audienceStorage } : {}),
    ...(audienceQueries ? { audienceQueries } : {}),
    ...(visitorAccuracy ? { visitorAccuracy } : {}),
    ...(peer ? { peer } : {}),
    failures,
  };
}

/** Drops every database this run created (`<prefix>_*`); best effort, as the run's results are already in. */
async function dropRunDatabases(client: MonitoredClient, prefix: string): Promise<void> {
  const known = ['growth', 'ingest', 'ingest_pre', 'queries', 'idempotency'].map((name) => `${prefix}_${name}`);
  const listed = await client
    .db('admin')
    .admin()
    .listDatabases({ nameOnly: true })
    .then((answer) => answer.databases.map((database) => database.name))
    .catch(() => [] as string[]);
  const names = new Set([...known, ...listed.filter((name) => name.startsWith(`${prefix}_`))]);
  for (const name of names)
    await client
      .db(name)
      .dropDatabase()
      .catch(() => undefined);
}

function engineOf(target: DatabaseTarget): BenchResults['engine'] {
  return {
    name: target.engine.name,
    version: target.engine.version,
    compatibleWith: target.engine.compatibleWith,
    ...(target.build === undefined ? {} : { build: target.build }),
    label: target.label,
    description: target.description,
    embedded: target.embedded,
  };
}

/** The command that reproduces this run (paths of given executables relative to the project). */
function commandOf(options: BenchOptions): string {
  const args: string[] = options.mode === 'full' ? [] : [`--${options.mode}`];
  const relative = (file: string): string => path.relative(projectRoot(), file) || file;
  if (options.ferretdbBinary) args.push('--ferretdb-binary', relative(options.ferretdbBinary));
  if (options.compareFerretdb === 'stock') args.push('--compare-stock');
  else if (options.compareFerretdb) args.push('--compare-ferretdb-binary', relative(options.compareFerretdb.binary));
  if (options.peerHits !== undefined) args.push('--peer-hits', String(options.peerHits));
  for (const name of options.only ?? []) args.push('--only', name);
  return args.length === 0 ? 'npm run bench' : `npm run bench -- ${args.join(' ')}`;
}
