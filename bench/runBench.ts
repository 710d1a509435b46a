/**
 * Runs every section against one database target, then writes results (JSON, CSV) and the report (markdown,
 * SVG). A failing section is recorded and the others still run, so one engine gap never hides the rest.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchResults } from './BenchResults';
import { buildCharts } from './charts';
import type { IdempotencyResult } from './idempotency';
import { runIdempotency } from './idempotency';
import type { IngestResult } from './ingest';
import { runIngest } from './ingest';
import { MonitoredClient } from './MonitoredClient';
import type { BenchOptions } from './options';
import { sizesFor } from './options';
import type { QueryResult } from './queries';
import { runQueries } from './queries';
import { renderReport } from './report';
import type { SchemaGrowthResult } from './schemaGrowth';
import { runSchemaGrowth } from './schemaGrowth';
import { startServer } from './serverProcess';
import type { StorageResult } from './storage';
import { runStorage } from './storage';
import { openTarget } from './target';
import { writeResults } from './writeResults';

export interface BenchOutput {
  readonly results: BenchResults;
  readonly resultsDir: string;
  readonly reportPath: string;
  readonly chartPaths: string[];
}

export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<BenchOutput> {
  const started = new Date();
  const stamp = started.toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '_');
  const target = await openTarget(process.env.MONGODB_URI || undefined);
  log(`engine: ${target.description}`);
  const sizes = sizesFor(options.mode, target.engine.name);
  // FerretDB applies updates without a lock: one connection, one write in flight (as the server does).
  const monitored = await new MonitoredClient(target.uri, {
    maxPoolSize: target.engine.requiresSingleWriter ? 1 : 10,
  }).connect();
  const rawClient = await new MonitoredClient(target.uri, { maxPoolSize: 10 }).connect();
  const dbPrefix = `bench_${stamp}`;
  const failures: BenchResults['failures'] = [];
  const attempt = async <T>(section: string, fn: () => Promise<T>): Promise<T | undefined> => {
    // `--only NAME` runs the sections whose title contains NAME.
    if (options.only && !options.only.some((name) => section.includes(name))) return undefined;
    log(`${section}…`);
    try {
      return await fn();
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
  const databases = ['growth', 'ingest', 'ingest_pre', 'queries', 'idempotency'].map((name) => `${dbPrefix}_${name}`);
  try {
    schemaGrowth = await attempt('1. schema growth (seed 004)', () =>
      runSchemaGrowth(monitored.db(`${dbPrefix}_growth`), sizes.schemaGrowth),
    );
    ingest = await attempt('2. ingest', () =>
      runIngest({
        db: monitored.db(`${dbPrefix}_ingest`),
        monitored,
        rawClient,
        sizes: sizes.ingest,
        startServer: (dbName, env) => startServer(options.server, { uri: target.uri, dbName, env }),
        log,
      }),
    );
    queries = await attempt('3. queries', () =>
      runQueries({
        db: monitored.db(`${dbPrefix}_queries`),
        monitored,
        sizes: sizes.queries,
        startServer: () => startServer(options.server, { uri: target.uri, dbName: `${dbPrefix}_queries` }),
        log,
      }),
    );
    storage = await attempt('4. storage', async () => runStorage(queries));
    idempotency = await attempt('5. idempotency', () =>
      runIdempotency({
        db: monitored.db(`${dbPrefix}_idempotency`),
        sizes: sizes.ingest,
        startServer: (dbName) => startServer(options.server, { uri: target.uri, dbName }),
        log,
      }),
    );
  } finally {
    for (const name of databases)
      await monitored
        .db(name)
        .dropDatabase()
        .catch(() => undefined);
    await monitored.close();
    await rawClient.close();
    await target.stop();
  }

  const results: BenchResults = {
    formatVersion: 1,
    mode: options.mode,
    startedAt: started.toISOString(),
    durationMs: Date.now() - started.getTime(),
    engine: {
      name: target.engine.name,
      version: target.engine.version,
      compatibleWith: target.engine.compatibleWith,
      label: target.label,
      description: target.description,
      embedded: target.embedded,
    },
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
    },
    server: options.server,
    command: options.mode === 'full' ? 'npm run bench' : `npm run bench -- --${options.mode}`,
    ...(schemaGrowth ? { schemaGrowth } : {}),
    ...(ingest ? { ingest } : {}),
    ...(queries ? { queries } : {}),
    ...(storage ? { storage } : {}),
    ...(idempotency ? { idempotency } : {}),
    failures,
  };
  const resultsDir = path.join(options.resultsDir, stamp);
  writeResults(resultsDir, results);
  const chartDir = path.join(options.docsDir, 'benchmarks');
  fs.mkdirSync(chartDir, { recursive: true });
  const chartPaths: string[] = [];
  for (const [name, svg] of buildCharts(results)) {
    const file = path.join(chartDir, name);
    fs.writeFileSync(file, svg);
    chartPaths.push(file);
    // A copy next to the machine-readable results, so each run keeps its own charts.
    fs.writeFileSync(path.join(resultsDir, name), svg);
  }
  const reportPath = path.join(options.docsDir, 'benchmarks.md');
  const report = renderReport(results);
  fs.writeFileSync(reportPath, report);
  fs.writeFileSync(path.join(resultsDir, 'benchmarks.md'), report);
  return { results, resultsDir, reportPath, chartPaths };
}
