/**
 * `tally dump FILE`: every collection tally owns, from the database `npm start` would use, into one gzip'd archive
 * (src/store/archive/ArchiveFormat.ts). Written to FILE.partial and renamed when complete, so FILE is never a
 * half-written archive. Exit codes: 0 written, 1 failed (nothing left at FILE), 2 usage error.
 */
import { constants, createWriteStream } from 'node:fs';
import { access, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { ARCHIVED_COLLECTIONS } from '../store/archive/archivedCollections';
import { dumpDatabase } from '../store/archive/dumpDatabase';
import type { DumpSummary } from '../store/archive/dumpDatabase';
import { startArchiveProgress } from './ArchiveProgress';
import { formatCollectionCounts, formatSeconds, totalDocuments } from './archiveSummary';
import type { CommandIo } from './importCommand';
import { openEnvironmentDatabase } from './openCommandDatabase';
import type { CommandDatabase } from './openCommandDatabase';
import { parseArchiveArgs } from './parseArchiveArgs';
import { UsageError } from './UsageError';
import { commandFailure } from './commandFailure';

export const DUMP_USAGE = `Usage: tally dump [options] FILE

Writes every collection tally owns (counters, visitor sketches, dimensions, impressions, the idempotency ledger,
beacon salts and the visitor secret) into FILE, a gzip'd archive that "tally restore" reads; "-" writes to stdout.
The database is the one "npm start" uses: MONGODB_URI and MONGODB_DB, or else the embedded database in
TALLY_DATA_DIR (default ./data). A server may keep running on it: the dump only reads, each document once.

Options:
  --timeout-ms N   longest one database command may take (default 60000)
  -h, --help       this help

The archive holds the visitor secret: keep it as private as the database. See docs/operations.md.
Exit codes: 0 written, 1 failed, 2 usage error.
`;

export async function runDumpCommand(args: string[], io: CommandIo): Promise<number> {
  let file: string;
  let timeoutMs: number;
  try {
    const parsed = parseArchiveArgs(args, { flags: [], values: ['timeout-ms'], files: 1 });
    if (parsed.help) {
      io.stdout.write(DUMP_USAGE);
      return 0;
    }
    file = parsed.files[0] as string;
    timeoutMs = parsed.timeoutMs;
    if (file !== '-') {
      const dir = path.dirname(path.resolve(file));
      await access(dir, constants.W_OK).catch(() => Promise.reject(new UsageError(`cannot write into ${dir}`)));
    }
  } catch (error) {
    return commandFailure('dump', error, io);
  }
  const started = (io.clock ?? Date.now)();
  let source: CommandDatabase;
  try {
    source = await openEnvironmentDatabase(io.env, { name: 'tally-dump', timeoutMs, signal: io.signal });
  } catch (error) {
    return commandFailure('dump', error, io, { context: 'cannot open the database' });
  }
  const toStdout = file === '-';
  const partial = `${file}.partial`;
  const gzip = createGzip();
  const written = toStdout
    ? pipeline(gzip, io.stdout as Writable, { end: false })
    : pipeline(gzip, createWriteStream(partial));
  // Awaited below; until then a failing file only fails the dump's next write (and is reported, not unhandled).
  written.catch(() => undefined);
  const progress = startArchiveProgress(io.stderr, 'dump');
  let summary: DumpSummary;
  try {
    summary = await dumpDatabase(source.database, gzip, {
      now: started,
      onStart: (collections) => progress.start(collections.reduce((sum, c) => sum + c.estimated, 0)),
      onDocument: (collection) => progress.advance(collection, 1),
      signal: io.signal,
    });
    await written;
    if (!toStdout) await rename(partial, file);
  } catch (error) {
    gzip.destroy();
    const writeError = await written.then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
    if (!toStdout) await rm(partial, { force: true });
    progress.stop();
    await source.close().catch(() => undefined);
    const reason = io.signal?.aborted === true ? 'interrupted' : (writeError ?? (error as Error)).message;
    io.stderr.write(`tally dump: failed, nothing written to ${toStdout ? 'stdout' : file}: ${reason}\n`);
    return 1;
  }
  progress.stop();
  await source.close().catch((error: unknown) => io.stderr.write(`tally dump: closing: ${(error as Error).message}\n`));
  const report = toStdout ? io.stderr : io.stdout;
  report.write(
    `tally dump: ${totalDocuments(summary.counts).toLocaleString('en-US')} documents from ${source.description} ` +
      `into ${toStdout ? 'stdout' : file} in ${formatSeconds((io.clock ?? Date.now)() - started)} ` +
      `(sha256 ${summary.trailer.sha256.slice(0, 16)}…)\n${formatCollectionCounts(summary.counts)}`,
  );
  if (dataDocuments(summary.counts) === 0) {
    // An empty archive is most often the wrong database (another MONGODB_DB, TALLY_DATA_DIR or embedded engine).
    io.stderr.write(`tally dump: note: ${source.description} holds no counters, impressions or ledger entries\n`);
  }
  return 0;
}

function dataDocuments(counts: ReadonlyMap<string, number>): number {
  let total = 0;
  for (const { name, data } of ARCHIVED_COLLECTIONS) if (data) total += counts.get(name) ?? 0;
  return total;
}
