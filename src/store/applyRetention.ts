/**
 * Drops the stored detail retention no longer keeps (issue 30, retentionCutoffs): daily documents of days before
 * `daysFrom` (RETENTION_DAYS) are deleted whole; daily documents of days from `daysFrom` up to `minutesFrom`
 * (RETENTION_MINUTES_DAYS) lose their minute counters (`$unset` of `minute`; `daily`, `hourly` and the day's sketch
 * and dimension counters stay); second-level documents (a minute's seconds and its visitor sketch) of days before
 * `minutesFrom` are deleted. Monthly documents are never touched.
 *
 * Ids start with the period (`YYYYMMDD/…`, `YYYYMMDDHHmm/…`), so "a day before D" is `_id < dayKey(D)`: an `_id`
 * range on MongoDB (an index scan), an id test in the one filterless pass of scanIds elsewhere. Writes go by `_id`
 * list in `_id` order, a bounded command per paced step (writeByIds).
 */
import type { Collection, Document } from 'mongodb';
import { dayKey } from '../time/buckets';
import type { RetentionCutoffs } from '../time/retentionCutoffs';
import { scanIds } from './scanIds';
import type { SweepContext } from './ttlOrSweep';
import { writeByIds } from './writeByIds';
import type { DocumentReads } from './WritePolicy';

export interface RetentionTarget {
  /** Where ids are looked for: the background connection. */
  readonly finder: Collection<Document>;
  /** Where documents are changed: the collection's writer. */
  readonly writer: Collection<Document>;
}

export interface RetentionTargets {
  readonly daily: RetentionTarget;
  readonly seconds: RetentionTarget;
}

export interface RetentionRun {
  /** Daily documents deleted whole. */
  readonly days: number;
  /** Daily documents whose minute counters were unset. */
  readonly minutes: number;
  /** Second-level documents deleted. */
  readonly seconds: number;
}

/**
 * `since`: the cutoffs an earlier complete run of this process applied; minute counters of days before its
 * `minutesFrom` were unset then and are not visited again (a late hit that writes some again is read as dropped
 * all the same, and a restart visits every day once more). Deletions always cover every day before the cutoff:
 * what was deleted is gone, so only documents re-created since come up.
 */
export async function applyRetention(
  targets: RetentionTargets,
  cutoffs: RetentionCutoffs,
  options: {
    readonly reads: DocumentReads;
    readonly context: SweepContext;
    readonly since?: RetentionCutoffs | undefined;
  },
): Promise<RetentionRun> {
  const { reads, context } = options;
  const minutesKey = finiteKey(cutoffs.minutesFrom);
  if (minutesKey === undefined) return { days: 0, minutes: 0, seconds: 0 };
  const daysKey = finiteKey(cutoffs.daysFrom);
  const sinceKey = finiteKey(options.since?.minutesFrom ?? -Infinity);
  const dropped = (id: string): boolean => daysKey !== undefined && id < daysKey;
  const visited = (id: string): boolean => sinceKey !== undefined && id < sinceKey;
  const ids = await scanIds(
    targets.daily.finder,
    {
      what: 'daily documents past retention',
      filter: dailyFilter(minutesKey, daysKey, sinceKey),
      matches: (id) => id < minutesKey && (dropped(id) || !visited(id)),
    },
    { reads, context },
  );
  const days = await writeByIds(
    targets.daily.writer,
    ids.filter(dropped),
    { kind: 'delete' },
    { reads, context, what: 'daily documents of dropped days' },
  );
  const minutes = await writeByIds(
    targets.daily.writer,
    ids.filter((id) => !dropped(id)),
    { kind: 'unset', fields: ['minute'] },
    { reads, context, what: 'daily documents past minute retention' },
  );
  const secondIds = await scanIds(
    targets.seconds.finder,
    {
      what: 'second-level documents past retention',
      filter: { _id: { $lt: minutesKey } },
      matches: (id) => id < minutesKey,
    },
    { reads, context },
  );
  const seconds = await writeByIds(
    targets.seconds.writer,
    secondIds,
    { kind: 'delete' },
    {
      reads,
      context,
      what: 'second-level documents past retention',
    },
  );
  return { days, minutes, seconds };
}

/** `matches` as `_id` ranges: every id of a dropped day, and the ids of trimmed days not visited before. */
function dailyFilter(minutesKey: string, daysKey: string | undefined, sinceKey: string | undefined): Document {
  const lows = [daysKey, sinceKey].filter((key): key is string => key !== undefined).sort();
  const low = lows[lows.length - 1];
  const trimmed: Document = { _id: { ...(low === undefined ? {} : { $gte: low }), $lt: minutesKey } };
  return daysKey === undefined ? trimmed : { $or: [{ _id: { $lt: daysKey } }, trimmed] };
}

/** The `_id` every document of a day before `day` sorts below; undefined for -Infinity (nothing is dropped). */
function finiteKey(day: number): string | undefined {
  return Number.isFinite(day) ? dayKey(day) : undefined;
}
