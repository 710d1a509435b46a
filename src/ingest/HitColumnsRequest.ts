/**
 * A columnar batch (HitColumns) with what its hits' visitors and dimensions come from, as dictionaries plus
 * per-hit indexes: each distinct visitor id, referrer, User-Agent, client IP and set of explicit values is sent,
 * validated and derived once per batch. Index -1: none for that hit; an index column absent: none for every hit.
 */
import type { ExplicitDimensions } from '../domain/dimensions/deriveDimensions';
import type { HitColumns } from '../domain/HitColumns';

export interface HitColumnsRequest extends HitColumns {
  readonly visitors?: readonly string[] | null | undefined;
  readonly visitorIndex?: readonly number[] | null | undefined;
  readonly referrers?: readonly string[] | null | undefined;
  readonly referrerIndex?: readonly number[] | null | undefined;
  readonly userAgents?: readonly string[] | null | undefined;
  readonly userAgentIndex?: readonly number[] | null | undefined;
  readonly clientIps?: readonly string[] | null | undefined;
  readonly clientIpIndex?: readonly number[] | null | undefined;
  /** Values the client sets itself; each wins over the derived value of its dimension. */
  readonly dimensions?: readonly ExplicitDimensions[] | null | undefined;
  readonly dimensionIndex?: readonly number[] | null | undefined;
}

/** The dictionary and index columns, by name: what validation and the fingerprint walk. */
export const COLUMN_DICTIONARIES = [
  ['visitors', 'visitorIndex'],
  ['referrers', 'referrerIndex'],
  ['userAgents', 'userAgentIndex'],
  ['clientIps', 'clientIpIndex'],
  ['dimensions', 'dimensionIndex'],
] as const;
