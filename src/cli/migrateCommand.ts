/**
 * `tally migrate --to URI [--db NAME] [--merge]`: `tally dump` piped into `tally restore`, in one process and with
 * no file: the dump writes the archive into a pipe the restore reads as it goes, and waits while the pipe is full,
 * so memory stays bounded by the pipe and one batch. For the move from the embedded default to a MongoDB server.
 * Exit codes: 0 migrated, 1 failed, 2 usage error.
 */
import { PassThrough } from 'node:stream';
import { dumpDatabase } from '../store/archive/dumpDatabase';
import { openArchive } from '../store/archive/readArchive';
import { restoreArchive } from '../store/archive/restoreArchive';
import { startArchiveProgress } from './ArchiveProgress';
import { formatCollectionCounts, formatSeconds, totalDocuments } from './archiveSummary';
import { commandFailure } from './commandFailure';
import type { CommandIo } from './importCommand';
import { openEnvironmentDatabase, openUri, redact } from './openCommandDatabase';
import type { CommandDatabase } from './openCommandDatabase';
import { parseArchiveArgs } from './parseArchiveArgs';
import type { ArchiveArgs } from './parseArchiveArgs';
import { restoreFailure, secretNote } from './restoreCommand';
import { UsageError } from './UsageError';

export const MIGRATE_USAGE = `Usage: tally migrate --to URI [options]

Copies every collection tally owns from the database "npm start" uses (MONGODB_URI and MONGODB_DB, or else the
embedded database in TALLY_DATA_DIR, default ./data) into the database at URI: "tally dump" piped into
"tally restore", streamed, with no file. A server may keep running on the source; hits it counts during the copy
reach the target only where their document was copied after them (stop it first for an exact copy).

Options:
  --to URI         the target's connection string, e.g. mongodb://db.example:27017 (required)
  --db NAME        the target database (default: the source's name, MONGODB_DB or "tally")
  --merge          add to data already in the target (as "tally restore --merge"); without it the target must
                   hold none
  --timeout-ms N   longest one database command may take (default 60000)
  -h, --help       this help

See docs/operations.md for moving on to a sharded cluster. Exit codes: 0 migrated, 1 failed, 2 usage error.
`;

/** The pipe between dump and restore: about this much archive text in flight at most. */
const PIPE_BYTES = 4 * 1024 * 1024;

export async function runMigrateCommand(args: string[], io: CommandIo): Promise<number> {
  let options: ArchiveArgs;
  let to: string;
  try {
    options = parseArchiveArgs(args, { flags: ['merge'], values: ['to', 'db', 'timeout-ms'], files: 0 });
    if (options.help) {
      io.stdout.write(MIGRATE_USAGE);
      return 0;
    }
    if (options.to === undefined) throw new UsageError('--to URI is required (the target MongoDB)');
    if (!/^mongodb(\+srv)?:\/\//.test(options.to)) {
      throw new UsageError(`--to must be a mongodb:// or mongodb+srv:// connection string, got ${redact(options.to)}`);
    }
    to = options.to;
  } catch (error) {
    return commandFailure('migrate', error, io);
  }
  const clock = io.clock ?? Date.now;
  const started = clock();
  let source: CommandDatabase;
  let target: CommandDatabase;
  try {
    source = await openEnvironmentDatabase(io.env, {
      name: 'tally-migrate',
      timeoutMs: options.timeoutMs,
      signal: io.signal,
    });
  } catch (error) {
    return commandFailure('migrate', error, io, { context: 'cannot open the source database' });
  }
  const targetDb = options.db ?? source.database.db.databaseName;
  if (to === source.uri && targetDb === source.database.db.databaseName) {
    await source.close().catch(() => undefined);
    // A merge into itself would read back what it adds.
    return commandFailure(
      'migrate',
      new UsageError(`the target is the source (${redact(to)}, database ${targetDb})`),
      io,
    );
  }
  try {
    target = await openUri(to, targetDb, {
      name: 'tally-migrate',
      timeoutMs: options.timeoutMs,
      signal: io.signal,
    });
  } catch (error) {
    await source.close().catch(() => undefined);
    return commandFailure('migrate', error, io, { context: `cannot open the target ${redact(to)}` });
  }
  const progress = startArchiveProgress(io.stderr, 'migrate');
  const pipe = new PassThrough({ highWaterMark: PIPE_BYTES });
  // A failed restore stops the dump (its next write fails), and a failed dump ends the restore's reading.
  const dumping = dumpDatabase(source.database, pipe, {
    now: started,
    onStart: (collections) => progress.start(collections.reduce((sum, c) => sum + c.estimated, 0)),
    signal: io.signal,
  }).catch((error: unknown) => {
    pipe.destroy(error as Error);
    throw error;
  });
  // Handled below; a failure while the restore has not begun reading must not count as unhandled meanwhile.
  dumping.catch(() => undefined);
  try {
    const restored = restoreArchive(target.database, await openArchive(pipe), {
      merge: options.merge,
      onWritten: (collection, documents) => progress.advance(collection, documents),
      signal: io.signal,
    }).catch((error: unknown) => {
      pipe.destroy(error as Error);
      throw error;
    });
    const [, summary] = await Promise.all([dumping, restored]);
    progress.stop();
    io.stdout.write(
      `tally migrate: ${totalDocuments(summary.counts).toLocaleString('en-US')} documents from ${source.description} ` +
        `${options.merge ? 'merged into' : 'copied to'} ${target.description} at ${redact(to)} in ` +
        `${formatSeconds(clock() - started)}\n${formatCollectionCounts(summary.counts)}${secretNote(summary.secret)}`,
    );
    return 0;
  } catch (error) {
    await dumping.catch(() => undefined);
    progress.stop();
    return commandFailure('migrate', error, io, { advice: restoreFailure(error, io.signal) });
  } finally {
    await Promise.all([source.close(), target.close()]).catch(() => undefined);
  }
}
