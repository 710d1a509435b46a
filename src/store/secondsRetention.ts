/**
 * The retention window of second-level documents: which documents are wholly outside it, and the TTL index that
 * expires them where the write policy has TTL indexes (ttlOrSweep; a sweep elsewhere). Only `stats.seconds` is
 * ever expired; daily and monthly documents keep every hit.
 */
import { MINUTE_MS } from '../time/buckets';
import { SECONDS_TTL_INDEX_NAME } from './secondStats';
import type { TtlIndex } from './ttlOrSweep';

/**
 * Documents starting before this instant are wholly outside the window: a minute document is kept until its
 * last second has left the window, so a range starting anywhere inside the window never reads a gap.
 */
export function secondsExpiryCutoff(now: number, retentionMs: number): number {
  return now - retentionMs - MINUTE_MS;
}

/** The TTL clock runs from metadata.date (the minute's start): a minute more than the window, as the cutoff. */
export function secondsTtlIndex(retentionMs: number): TtlIndex {
  return {
    field: 'metadata.date',
    name: SECONDS_TTL_INDEX_NAME,
    expireAfterSeconds: Math.round((retentionMs + MINUTE_MS) / 1000),
  };
}
