/**
 * Hits as the ingest log keeps them: after validation and enrichment, so a replay needs neither the request nor the
 * secret, the salts or the User-Agent parser. Only derived fields are written (the visitor's keyed hash, dimension
 * values): the log holds no more about a person than the counter documents do.
 */
import { DIMENSIONS } from '../../domain/dimensions/Dimension';
import type { DimensionValues } from '../../domain/dimensions/Dimension';
import type { Hit } from '../../domain/Hit';

type LoggedHit = [site: string, page: string, at: number, count: number, hi: number, lo: number, dims: string[] | 0];

/** `hi` of a hit without a visitor: a real hash half is an unsigned 32-bit integer. */
const NO_VISITOR = -1;

export function encodeHits(hits: readonly Hit[]): Buffer {
  const rows: LoggedHit[] = hits.map((hit) => [
    hit.site,
    hit.page,
    hit.at,
    hit.count,
    hit.visitor ? hit.visitor.hi : NO_VISITOR,
    hit.visitor ? hit.visitor.lo : 0,
    hit.dimensions ? DIMENSIONS.map((d) => (hit.dimensions as DimensionValues)[d]) : 0,
  ]);
  return Buffer.from(JSON.stringify(rows));
}

export function decodeHits(payload: Buffer): Hit[] {
  const rows = JSON.parse(payload.toString('utf8')) as LoggedHit[];
  return rows.map(([site, page, at, count, hi, lo, dims]) => {
    const hit: { -readonly [K in keyof Hit]: Hit[K] } = { site, page, at, count };
    if (hi !== NO_VISITOR) hit.visitor = { hi, lo };
    if (dims !== 0) hit.dimensions = Object.fromEntries(DIMENSIONS.map((d, i) => [d, dims[i]])) as DimensionValues;
    return hit;
  });
}
