/**
 * `tally restore FILE [--merge]`: an archive of `tally dump` into the database `npm start` would use. A file is read
 * whole and checked first (format, counts, checksum), so a damaged archive writes nothing. Exit codes: 0 restored,
 * 1 failed (a bad archive, a target that holds data without --merge, a database error), 2 usage error.
 */
import { access } from 'node:fs/promises';
import { openArchive, verifyArchive } from '../store/archive/readArchive';
import type { RestoreSummary } from '../store/archive/restoreArchive';
import { restoreArchive, TargetNotEmptyError } from '../store/archive/restoreArchive';
import { startArchiveProgress } from './ArchiveProgress';
import { formatCollectionCounts, formatSeconds, totalDocuments } from './archiveSummary';
import { commandFailure } from './commandFailure';
import type { CommandIo } from './importCommand';
import { openEnvironmentDatabase } from './openCommandDatabase';
import type { CommandDatabase } from './openCommandDatabase';
import { parseArchiveArgs } from './parseArchiveArgs';
import type { ArchiveArgs } from './parseArchiveArgs';
import { readArchiveFile } from './readArchiveFile';
import { UsageError } from './UsageError';

export const RESTORE_USAGE = `Usage: tally restore [options] FILE

Restores an archive of "tally dump" ("-" reads stdin) into the database "npm start" uses: MONGODB_URI and
MONGODB_DB, or else the embedded database in TALLY_DATA_DIR (default ./data). A file is checked whole first
(format, counts, checksum): a damaged or cut archive writes nothing.

Without --merge the target must hold no data (a bare start's visitor secret and salts do not count; the archive's
replace them, so restart a server running on it). Documents are written as they were.

Options:
  --merge          add the archive to the data already there: counters are added, visitor sketches ORed
                   (packed ones unpacked first); ledger entries, salts and the visitor secret there are kept
  --timeout-ms N   longest one database command may take (default 60000)
  -h, --help       this help

Merging the same archive twice counts it twice; a restore that failed part-way is re-run into an empty database.
See docs/operations.md. Exit codes: 0 restored, 1 failed, 2 usage error.
`;

export async function runRestoreCommand(args: string[], io: CommandIo): Promise<number> {
  let options: ArchiveArgs;
  let file: string;
  try {
    options = parseArchiveArgs(args, { flags: ['merge'], values: ['timeout-ms'], files: 1 });
    if (options.help) {
      io.stdout.write(RESTORE_USAGE);
      return 0;
    }
    file = options.files[0] as string;
    if (file !== '-') await access(file).catch(() => Promise.reject(new UsageError(`cannot read ${file}`)));
  } catch (error) {
    return commandFailure('restore', error, io);
  }
  const clock = io.clock ?? Date.now;
  const started = clock();
  if (file !== '-') {
    try {
      await verifyArchive(readArchiveFile(file, io.stdin));
    } catch (error) {
      return commandFailure('restore', error, io, {
        context: `${file} is not a complete archive, nothing was written`,
      });
    }
  }
  let target: CommandDatabase;
  try {
    target = await openEnvironmentDatabase(io.env, {
      name: 'tally-restore',
      timeoutMs: options.timeoutMs,
      signal: io.signal,
    });
  } catch (error) {
    return commandFailure('restore', error, io, { context: 'cannot open the database' });
  }
  const progress = startArchiveProgress(io.stderr, options.merge ? 'merge' : 'restore');
  let summary: RestoreSummary;
  let header;
  try {
    const archive = await openArchive(readArchiveFile(file, io.stdin));
    header = archive.header;
    progress.start(header.collections.reduce((sum, c) => sum + c.estimated, 0));
    summary = await restoreArchive(target.database, archive, {
      merge: options.merge,
      onWritten: (collection, documents) => progress.advance(collection, documents),
      signal: io.signal,
    });
  } catch (error) {
    progress.stop();
    await target.close().catch(() => undefined);
    return commandFailure('restore', error, io, { advice: restoreFailure(error, io.signal) });
  }
  progress.stop();
  await target
    .close()
    .catch((error: unknown) => io.stderr.write(`tally restore: closing: ${(error as Error).message}\n`));
  io.stdout.write(
    `tally restore: ${totalDocuments(summary.counts).toLocaleString('en-US')} documents ` +
      `${options.merge ? 'merged' : 'restored'} into ${target.description} in ${formatSeconds(clock() - started)}, ` +
      `from ${file === '-' ? 'stdin' : file} (dumped ${header.createdAt} from ${header.engine}, database ${header.database})\n` +
      formatCollectionCounts(summary.counts) +
      secretNote(summary.secret),
  );
  return 0;
}

/** What to do after a restore (or the restoring half of a migrate) failed. */
export function restoreFailure(error: unknown, signal: AbortSignal | undefined): string {
  if (error instanceof TargetNotEmptyError) {
    return 'nothing was written: restore into an empty database, or add --merge to add the archive to the data there';
  }
  if (signal?.aborted === true)
    return 'interrupted; the target holds part of the archive (restore again into an empty database)';
  return 'stopped; the target may hold part of the archive (restore again into an empty database)';
}

export function secretNote(secret: RestoreSummary['secret']): string {
  if (secret === 'differs') {
    return (
      "note: the target keeps its own visitor secret, which differs from the archive's: a visitor counted in both " +
      'counts twice in ranges that span both (see docs/operations.md)\n'
    );
  }
  if (secret === 'restored') {
    return "note: the archive's visitor secret is now the database's (a server already running on it reads it when restarted)\n";
  }
  return '';
}
