/**
 * Exactly-once markers inside counter documents (issue 9). A writer *lane* is one sequential stream of flushes
 * with a random id; `_a.<lane>: <seq>` in a document proves that flush `seq` of that lane reached it. A lane has
 * one flush in flight and is retired at its first failure, so for an attempt (lane, seq) a document has absorbed
 * it exactly when `_a.<lane> >= seq`. An upsert guarded by `_a.<lane> < seq` is therefore idempotent: re-sending
 * it (a retry of the same flush, or a re-drive of a request after a crash) never counts twice.
 */
import type { Document } from 'mongodb';

export const MARKER_FIELD = '_a';

/** One attempt at writing: flush `seq` of lane `lane`. */
export interface LaneSeq {
  readonly lane: string;
  readonly seq: number;
}

export interface FlushMark {
  /** The attempt this write records in every document it touches. */
  readonly mark: LaneSeq;
  /**
   * Earlier attempts at the same content (a re-drive after a failure): a document that absorbed any of them is
   * skipped. Always includes `mark` itself.
   */
  readonly guards: readonly LaneSeq[];
}

export function flushMark(mark: LaneSeq, earlier: readonly LaneSeq[] = []): FlushMark {
  return { mark, guards: [...earlier.filter((a) => a.lane !== mark.lane), mark] };
}

/** Filter conditions: the document has absorbed none of the guarded attempts (a missing field counts as none). */
export function markFilter(mark: FlushMark): Document {
  const filter: Document = {};
  for (const { lane, seq } of mark.guards) filter[`${MARKER_FIELD}.${lane}`] = { $not: { $gte: seq } };
  return filter;
}

export function markSet(mark: FlushMark): Document {
  return { [`${MARKER_FIELD}.${mark.mark.lane}`]: mark.mark.seq };
}

/** The projection that reads back what `isAbsorbed` needs. */
export function markProjection(mark: FlushMark): Document {
  const projection: Document = { _id: 1 };
  for (const { lane } of mark.guards) projection[`${MARKER_FIELD}.${lane}`] = 1;
  return projection;
}

/** Whether a stored document (read with markProjection) has absorbed one of the guarded attempts. */
export function isAbsorbed(document: Document | null | undefined, mark: FlushMark): boolean {
  const markers = document?.[MARKER_FIELD] as Record<string, unknown> | undefined;
  if (!markers) return false;
  return mark.guards.some(({ lane, seq }) => typeof markers[lane] === 'number' && (markers[lane] as number) >= seq);
}
