/**
 * `tally delete --site S [--page P]`: deletes a site's (or one page's) stored counts from the database `npm start`
 * would use, as the deleteSite and deletePage mutations do, and waits until it is done: the request is recorded in
 * `ops.deletions` first, so one interrupted is finished by the next `tally delete` or by a server's background job.
 * Exit codes: 0 done, 1 failed or interrupted (the deletion stays pending), 2 usage error.
 */
import { CounterStore } from '../store/CounterStore';
import { Deletions } from '../store/Deletions';
import type { SweepContext } from '../store/ttlOrSweep';
import { unwatched } from '../store/StepWatch';
import { formatCollectionCounts, formatSeconds, totalDocuments } from './archiveSummary';
import { commandFailure } from './commandFailure';
import type { CommandIo } from './importCommand';
import { openEnvironmentDatabase } from './openCommandDatabase';
import type { CommandDatabase } from './openCommandDatabase';
import { parseDeleteArgs } from './parseDeleteArgs';

export const DELETE_USAGE = `Usage: tally delete --site SITE [--page PAGE] [options]

Deletes every stored count of SITE (its pages, its totals, their visitors and dimensions, at every granularity), or
of one PAGE of it, and waits until it is done. The database is the one "npm start" uses: MONGODB_URI and MONGODB_DB,
or else the embedded database in TALLY_DATA_DIR (default ./data). A server may keep running on it.

Everything stored before the command starts is deleted; hits that arrive meanwhile may be deleted too or may stay,
and hits after it count afresh. With --page, the site's totals keep the page's hits (they do not name the page).

Options:
  --site SITE      the site, as recorded (required)
  --page PAGE      only this page (a path starting with "/")
  --timeout-ms N   longest one database command may take (default 60000)
  -h, --help       this help

The same as the deleteSite and deletePage mutations; see docs/operations.md.
Exit codes: 0 deleted, 1 failed or interrupted (the deletion stays pending and a server finishes it), 2 usage error.
`;

export async function runDeleteCommand(args: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseDeleteArgs(args);
  } catch (error) {
    return commandFailure('delete', error, io);
  }
  if (parsed.help) {
    io.stdout.write(DELETE_USAGE);
    return 0;
  }
  const clock = io.clock ?? Date.now;
  const started = clock();
  let source: CommandDatabase;
  try {
    source = await openEnvironmentDatabase(io.env, {
      name: 'tally-delete',
      timeoutMs: parsed.timeoutMs,
      signal: io.signal,
    });
  } catch (error) {
    return commandFailure('delete', error, io, { context: 'cannot open the database' });
  }
  const what =
    parsed.target.page === undefined ? `site ${parsed.target.site}` : `page ${parsed.target.site}${parsed.target.page}`;
  const context: SweepContext = { watch: unwatched, stopped: () => io.signal?.aborted === true };
  try {
    const deletions = new Deletions(source.database, new CounterStore(source.database));
    const deletion = await deletions.request(parsed.target, started);
    const counts = await deletions.carryOut(deletion, context);
    if (context.stopped()) throw new Error('interrupted; the deletion stays pending');
    io.stdout.write(
      `tally delete: ${totalDocuments(counts).toLocaleString('en-US')} documents of ${what} deleted from ` +
        `${source.description} in ${formatSeconds(clock() - started)}\n${formatCollectionCounts(counts)}`,
    );
    return 0;
  } catch (error) {
    return commandFailure('delete', error, io, { context: `deleting ${what}` });
  } finally {
    await source
      .close()
      .catch((error: unknown) => io.stderr.write(`tally delete: closing: ${(error as Error).message}\n`));
  }
}
