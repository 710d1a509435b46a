/**
 * The visitor and dimension fields of counter documents (CONTRACT, issues 19 and 20) as reads see them, and the
 * projection that adds them to a find: `v` (the period's visitor sketch), `d.<dimension>.<key>` (hits per value) and
 * `dv.<dimension>.<key>` (per-value sketches, site documents only). Reads name only what they use, so a series that
 * does not show visitors never moves a register over the wire. Once a period is over, compactPastPeriods folds `v`
 * into `vz` and each `dv` sketch into its `dvz` twin (one binary value each); a read takes the OR of both forms,
 * since a late hit writes `v` again beside `vz`. The same job folds each dimension's counters `d.<dimension>` into
 * `dz.<dimension>` (packCounters); a read adds both forms, since a late hit increments `d` again beside `dz`.
 */
import type { Document } from 'mongodb';
import type { Dimension } from '../domain/dimensions/Dimension';
import { VISIT_COUNTERS_PROJECTION } from './visitCounters';
import type { VisitCounterFields } from './visitCounters';

/** Every key of a dimension, or only these keys (dimensionKey's escaped form). */
export type DimensionKeys = 'all' | ReadonlySet<string>;

export interface ExtraFields {
  /** `v`. */
  readonly visitors?: boolean | undefined;
  /** `d.<dimension>` whole, or `d.<dimension>.<key>` per key listed. */
  readonly dimensions?: ReadonlyMap<Dimension, DimensionKeys> | undefined;
  /** `dv.<dimension>` whole, or `dv.<dimension>.<key>` per key listed. */
  readonly dimensionVisitors?: ReadonlyMap<Dimension, DimensionKeys> | undefined;
  /** Visit counters (issue 29): `vh` of daily documents, `vd` of monthly ones. */
  readonly visits?: boolean | undefined;
  /** Visit counters per dimension value (site documents): `dx.<dimension>` whole, or per key listed. */
  readonly dimensionVisits?: ReadonlyMap<Dimension, DimensionKeys> | undefined;
}

/** A stored sketch: register number → word (VisitorSketch.fromStoredFields reads it). */
export type StoredSketch = Readonly<Record<string, number>>;

/** A compacted sketch: VisitorSketch.toPacked's bytes (the collections hand binaries over as Buffers). */
export type PackedSketch = Uint8Array;

/** Compacted counters of one dimension: packCounters' bytes. */
export type PackedCounters = Uint8Array;

/** The extra fields as read; each present only when projected and written. */
export interface StatsExtras extends VisitCounterFields {
  readonly v?: StoredSketch;
  readonly vz?: PackedSketch;
  readonly d?: Readonly<Partial<Record<string, Readonly<Record<string, number>>>>>;
  /** Per dimension, its compacted counters (packCounters' bytes). */
  readonly dz?: Readonly<Partial<Record<string, PackedCounters>>>;
  readonly dv?: Readonly<Partial<Record<string, Readonly<Record<string, StoredSketch>>>>>;
  readonly dvz?: Readonly<Partial<Record<string, Readonly<Record<string, PackedSketch>>>>>;
}

/**
 * The projection entries for `extra`. A whole dimension wins over its keys: MongoDB refuses a projection holding
 * both `d.source` and `d.source.google` (a path collision). A dimension's compacted counters are one value, read
 * whole (`dz.<dimension>`) even for some of its keys.
 */
export function extraProjection(extra: ExtraFields | undefined): Document {
  const projection: Document = {};
  if (extra === undefined) return projection;
  if (extra.visitors === true) {
    projection.v = 1;
    projection.vz = 1;
  }
  addDimensionPaths(projection, 'd', extra.dimensions);
  for (const dimension of extra.dimensions?.keys() ?? []) projection[`dz.${dimension}`] = 1;
  addDimensionPaths(projection, 'dv', extra.dimensionVisitors);
  addDimensionPaths(projection, 'dvz', extra.dimensionVisitors);
  if (extra.visits === true) Object.assign(projection, VISIT_COUNTERS_PROJECTION);
  addDimensionPaths(projection, 'dx', extra.dimensionVisits);
  return projection;
}

function addDimensionPaths(
  projection: Document,
  field: 'd' | 'dv' | 'dvz' | 'dx',
  wanted: ReadonlyMap<Dimension, DimensionKeys> | undefined,
): void {
  if (wanted === undefined) return;
  for (const [dimension, keys] of wanted) {
    if (keys === 'all') projection[`${field}.${dimension}`] = 1;
    else for (const key of keys) projection[`${field}.${dimension}.${key}`] = 1;
  }
}
