/**
 * Where visit counters (issue 29) live in the counter documents: per UTC hour in daily documents
 * (`vh.<hour>.<field>`), per UTC day in monthly documents (`vd.<day of month>.<field>`), per UTC minute in the minute
 * documents of `stats.seconds` (`vm.<field>`, for the live series; every field but exits, which nothing reads per
 * minute), and per dimension value in site documents (`dx.<dimension>.<key>.<field>`, by day and by month). Fields
 * are VisitDelta's.
 */
import type { Document } from 'mongodb';
import { VISIT_FIELDS } from '../domain/visits/VisitDelta';
import type { VisitField } from '../domain/visits/VisitDelta';

/** One period's visit counters as stored (each present once written). */
export type StoredVisitCounts = Readonly<Partial<Record<VisitField, number>>>;

export interface VisitCounterFields {
  /** Daily documents: per hour of the day. */
  readonly vh?: Readonly<Record<string, StoredVisitCounts>>;
  /** Monthly documents: per day of the month. */
  readonly vd?: Readonly<Record<string, StoredVisitCounts>>;
  /** Minute documents (`stats.seconds`): the minute's. */
  readonly vm?: StoredVisitCounts;
  /** Site documents: per dimension, then value key. */
  readonly dx?: Readonly<Partial<Record<string, Readonly<Record<string, StoredVisitCounts>>>>>;
}

const HOUR_PATHS = Array.from({ length: 24 }, (_, h) => fieldPaths(`vh.${h}.`));
const DAY_PATHS = Array.from({ length: 32 }, (_, d) => fieldPaths(`vd.${d}.`));

export function visitHourPath(hour: number, field: VisitField): string {
  return (HOUR_PATHS[hour] as Record<VisitField, string>)[field];
}

export function visitDayPath(dayOfMonth: number, field: VisitField): string {
  return (DAY_PATHS[dayOfMonth] as Record<VisitField, string>)[field];
}

const MINUTE_PATHS: Partial<Record<VisitField, string>> = Object.fromEntries(
  VISIT_FIELDS.filter((field) => field !== 'x').map((field) => [field, `vm.${field}`]),
);

/** A minute document's path of `field`; undefined for exits, which minute documents do not keep. */
export function visitMinutePath(field: VisitField): string | undefined {
  return MINUTE_PATHS[field];
}

/** The projection of the visit counters of daily, monthly and minute documents (each has one of the three). */
export const VISIT_COUNTERS_PROJECTION: Readonly<Document> = { vh: 1, vd: 1, vm: 1 };

function fieldPaths(prefix: string): Record<VisitField, string> {
  return Object.fromEntries(VISIT_FIELDS.map((field) => [field, prefix + field])) as Record<VisitField, string>;
}
