/**
 * `tally import [files…]`: parse the arguments, open the target, run the pipeline with progress, print the
 * summary. Returns the exit code: 0 everything imported, 1 partial (interrupted, a batch refused, a file
 * unreadable, the target gone), 2 usage error. Unparseable lines are reported, never fatal.
 */
import { access, stat } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import pino from 'pino';
import { LogLineClassifier } from '../accesslog/LogLineClassifier';
import { ConfigError } from '../errors/ConfigError';
import { loadConfig } from '../config/loadConfig';
import { BatchSubmitter } from '../logimport/BatchSubmitter';
import { DirectTarget } from '../logimport/DirectTarget';
import { GraphqlTarget } from '../logimport/GraphqlTarget';
import type { ImportTarget } from '../logimport/ImportTarget';
import { ImportStats } from '../logimport/ImportStats';
import { fileInput } from '../logimport/readLogChunks';
import type { LogInput } from '../logimport/readLogChunks';
import { runImport } from '../logimport/runImport';
import { startImportProgress } from './ImportProgress';
import { buildImportSummary, formatImportSummary } from './importSummary';
import { parseImportArgs } from './parseImportArgs';
import type { ImportOptions } from './parseImportArgs';
import { UsageError } from './UsageError';

export interface CommandIo {
  readonly stdin: Readable & { isTTY?: boolean | undefined };
  readonly stdout: Writable & { isTTY?: boolean | undefined };
  readonly stderr: Writable & { isTTY?: boolean | undefined };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborted on Ctrl-C: stop reading, finish the batches in flight, report. */
  readonly signal?: AbortSignal | undefined;
  readonly clock?: () => number;
}

/** How long the pipeline gives one batch: 8 attempts, backing off from 250 ms to 15 s (about a minute in all). */
const ATTEMPTS = 8;
const backoffMs = (attempt: number): number => Math.min(15_000, 250 * 2 ** (attempt - 1));

export const IMPORT_USAGE = `Usage: tally import [options] [files…]

Imports nginx/Apache access logs (plain or .gz; "-" or no file reads stdin) into tally as page hits.

Target (one of):
  --url URL             a running tally's GraphQL endpoint (default http://127.0.0.1:4000/graphql)
  --api-key KEY         sent as "Authorization: Bearer KEY" (or set TALLY_API_KEY)
  --mongodb-uri URI     write into the database directly, through the same ingest core
  --db NAME             database name with --mongodb-uri (default MONGODB_DB or "tally")
  --dry-run             parse and count only; send nothing

Lines:
  --format FORMAT       combined (default; common lines are read too), common, or an nginx log_format
                        string, e.g. '$host $remote_addr [$time_local] "$request" $status "$http_user_agent"'
  --site NAME           the site every line counts for; without it, the format's $host names it
  --map-host HOST=SITE  count lines of virtual host HOST for SITE (repeatable), e.g. www.example.com=example.com
  --keep-query          keep query strings in pages (dropped by default; UTM values are counted either way)
  --no-visitors         send no visitors (by default each line's visitor is a hash of its client address,
                        User-Agent and UTC day, which the server keys again and never stores)
  --no-dimensions       send no referrer, User-Agent, client address or UTM values (the server then counts
                        every hit as direct, unknown browser, unknown country)
  --no-status-filter    also count statuses outside 200-399
  --no-method-filter    also count methods other than GET
  --no-asset-filter     also count static assets (by extension)
  --asset-extensions L  comma-separated extensions treated as static assets
  --no-bot-filter       also count bots (user agents recognised by isbot)

Running:
  --batch-lines N       lines per batch and idempotency key (default 5000; keep it the same when re-running)
  --concurrency N       batches in flight (default 4)
  --progress MODE       auto (a bar on a terminal, else a line every 5 s), bar, plain or none
  --json                print the summary as JSON on stdout
  -h, --help            this help

An interrupted import (Ctrl-C, crash, network error) is finished by running the same command again: every batch
carries an idempotency key derived from the file's content and its line range, so nothing is counted twice.
Exit codes: 0 imported, 1 partial (see the summary), 2 usage error.
`;

export async function runImportCommand(args: string[], io: CommandIo = processIo()): Promise<number> {
  let options: ImportOptions;
  try {
    const parsed = parseImportArgs(args, io.env, io.stdin.isTTY === true);
    if (parsed.help) {
      io.stdout.write(IMPORT_USAGE);
      return 0;
    }
    options = parsed.options;
    await checkReadable(options.files);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`tally import: ${error.message}\nRun "tally import --help" for usage.\n`);
      return 2;
    }
    throw error;
  }

  const clock = io.clock ?? Date.now;
  const started = clock();
  let target: ImportTarget | undefined;
  try {
    target = await openTarget(options, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`tally import: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`tally import: cannot open the target: ${(error as Error).message}\n`);
    return 1;
  }

  const stats = new ImportStats();
  const submitter = target
    ? new BatchSubmitter(target, stats, { concurrency: options.concurrency, attempts: ATTEMPTS, backoffMs })
    : undefined;
  const classifier = new LogLineClassifier({
    formats: options.formats,
    site: options.site,
    hostSites: options.hostSites,
    keepQuery: options.keepQuery,
    visitors: options.visitors,
    dimensions: options.dimensions,
    filters: options.filters,
    assetExtensions: options.assetExtensions,
    now: clock(),
    maxClockSkewMs: 300_000,
  });
  const inputs: LogInput[] = options.files.map((file) =>
    file === '-' ? { name: '-', stream: () => io.stdin } : fileInput(file),
  );
  const progress = startImportProgress(
    options.progress,
    io.stderr,
    stats,
    await totalBytes(options.files),
    target === undefined,
    clock,
  );
  let result;
  try {
    result = await runImport({
      inputs,
      classifier,
      batchLines: options.batchLines,
      submitter,
      stats,
      signal: io.signal,
    });
  } finally {
    progress.stop();
    await target
      ?.close()
      .catch((error: unknown) => io.stderr.write(`tally import: closing: ${(error as Error).message}\n`));
  }
  const summary = buildImportSummary({
    stats,
    end: result.end,
    readErrors: result.readErrors,
    target: target?.description ?? 'nothing (dry run)',
    dryRun: target === undefined,
    files: inputs.length,
    elapsedMs: clock() - started,
    stoppedBecause: result.end === 'interrupted' ? 'interrupted (Ctrl-C)' : submitter?.abortReason,
  });
  if (options.json) io.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  else io.stdout.write(formatImportSummary(summary));
  return summary.outcome === 'complete' ? 0 : 1;
}

async function openTarget(options: ImportOptions, io: CommandIo): Promise<ImportTarget | undefined> {
  const target = options.target;
  if (target.kind === 'dry-run') return undefined;
  if (target.kind === 'graphql') return new GraphqlTarget(target.url, target.apiKey);
  let config;
  try {
    config = loadConfig({ ...io.env, MONGODB_URI: target.uri, MONGODB_DB: target.db ?? io.env.MONGODB_DB });
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  // The driver and store log through pino; on the CLI only warnings matter, and they go to stderr.
  const logger = pino({ level: 'warn', base: { service: 'tally-import' } }, pino.destination({ fd: 2, sync: true }));
  return DirectTarget.open(config, target.uri, logger, { clock: io.clock, signal: io.signal });
}

async function checkReadable(files: readonly string[]): Promise<void> {
  for (const file of files) {
    if (file === '-') continue;
    try {
      await access(file);
      if ((await stat(file)).isDirectory()) throw new UsageError(`expected a log file, got the directory ${file}`);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
}

async function totalBytes(files: readonly string[]): Promise<number | undefined> {
  if (files.includes('-')) return undefined;
  let total = 0;
  for (const file of files) total += (await stat(file)).size;
  return total;
}

function processIo(): CommandIo {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}
