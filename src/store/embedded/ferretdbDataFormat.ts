/**
 * Which of tally's FerretDB builds can read an embedded data directory. Four patches changed how the SQLite backend
 * stores a document (docs/ferretdb.md, patches 16, 18, 23 and 24): each build reads every earlier form, but what it
 * writes fails to read on a build before it, query after query. So every start notes in the data directory's record
 * (engine.json) the oldest build that reads what it writes, and a start with an older build is refused before
 * FerretDB runs: checking out an earlier tally beside a data directory a later one wrote would otherwise start and
 * fail every read. The figure is the writer's, because an earlier checkout cannot know the forms that came after it.
 */

/**
 * Builds whose writes no earlier build reads: `tally14` (patch 16), `tally16` (patch 18), `tally21` (patch 23),
 * `tally22` (patch 24).
 */
export const FORMAT_BUILDS: readonly number[] = [14, 16, 21, 22];

const PATCHED = /^v?\d+\.\d+\.\d+-tally(\d+)$/;
const STOCK = /^v?\d+\.\d+\.\d+$/;

/** tally's build number of a FerretDB version (`v1.24.2-tally21` → 21, stock `v1.24.2` → 0); undefined if neither. */
export function ferretdbBuild(version: string | undefined): number | undefined {
  if (version === undefined) return undefined;
  const patched = PATCHED.exec(version);
  if (patched) return Number(patched[1]);
  return STOCK.test(version) ? 0 : undefined;
}

/** The oldest build that reads what `build` wrote (0: any, stock FerretDB included). */
export function readableFrom(build: number): number {
  let oldest = 0;
  for (const format of FORMAT_BUILDS) if (format <= build) oldest = format;
  return oldest;
}

/** What a data directory's record says about the builds that wrote it (EngineRecord). */
export interface WrittenBy {
  /** The version of the latest start. */
  readonly lastVersion?: string | undefined;
  /** The oldest build that reads the data, as the builds that wrote it knew it (an older checkout cannot know). */
  readonly readableFrom?: number | undefined;
}

/** The oldest build the record says reads the data: its own figure, or what is known of its last version's form. */
export function neededBuild(written: WrittenBy): number {
  const last = ferretdbBuild(written.lastVersion);
  return Math.max(written.readableFrom ?? 0, last === undefined ? 0 : readableFrom(last));
}

/**
 * Why `running` may not start on the data, or undefined when it may (also when its version is unknown: a build that
 * cannot be told is not refused on a guess).
 */
export function ferretdbDowngradeRefusal(
  dataDir: string,
  written: WrittenBy,
  running: string | undefined,
): string | undefined {
  const runningBuild = ferretdbBuild(running);
  if (runningBuild === undefined) return undefined;
  const needed = neededBuild(written);
  if (runningBuild >= needed) return undefined;
  return (
    `the data in ${dataDir} was last written by FerretDB ${written.lastVersion ?? '(a later build)'}, in a form ` +
    `only tally's builds from tally${needed} on read, and this one is FerretDB ${running}: start it with the tally ` +
    'that wrote it or a later one, or set TALLY_DATA_DIR to another directory to start afresh'
  );
}

/** The record's figure once `running` has started on the data: the oldest build that reads what it writes, or more. */
export function readableAfterStart(written: WrittenBy | undefined, running: string | undefined): number {
  const build = ferretdbBuild(running);
  return Math.max(written === undefined ? 0 : neededBuild(written), build === undefined ? 0 : readableFrom(build));
}
