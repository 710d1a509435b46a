/**
 * Hits as the ingest log keeps them: after validation and enrichment, so a replay needs neither the request nor the
 * secret, the salts or the User-Agent parser. Only derived fields are written (the visitor's keyed hash, dimension
 * values): the log holds no more about a person than the counter documents do.
 */
import { DIMENSIONS } from '../../domain/dimensions/Dimension';
import type { DimensionValues } from '../../domain/dimensions/Dimension';
import type { HitEvent } from '../../domain/events/HitEvent';
import type { Hit } from '../../domain/Hit';
import type { LedgerClaim } from '../../store/requestLedger';

/**
 * A hit's row. Events (issue 28) append an eighth element, so records written before events existed (seven) still
 * replay, as pageviews.
 */
type LoggedHit =
  | [site: string, page: string, at: number, count: number, hi: number, lo: number, dims: string[] | 0]
  | [site: string, page: string, at: number, count: number, hi: number, lo: number, dims: string[] | 0, LoggedEvent];

/** name, properties as [key, value] pairs, and revenue's currency and minor units (0, 0 without revenue). */
type LoggedEvent = [name: string, props: Array<[string, string]>, currency: string | 0, minor: number];

/** `hi` of a hit without a visitor: a real hash half is an unsigned 32-bit integer. */
const NO_VISITOR = -1;

export function encodeHits(hits: readonly Hit[]): Buffer {
  return Buffer.from(JSON.stringify(hits.map(toRow)));
}

export function decodeHits(payload: Buffer): Hit[] {
  return (JSON.parse(payload.toString('utf8')) as LoggedHit[]).map(fromRow);
}

/**
 * A request with an idempotency key: its key's hash, its payload's fingerprint and its arrival time (what the ledger
 * claim holds, src/store/requestLedger.ts), then its hits. Neither the key nor the payload can be read back from it.
 */
export function encodeKeyedHits(claim: LedgerClaim, hits: readonly Hit[]): Buffer {
  const logged: LoggedKeyed = [claim.id, claim.fingerprint, claim.now, hits.map(toRow)];
  return Buffer.from(JSON.stringify(logged));
}

export function decodeKeyedHits(payload: Buffer): { claim: LedgerClaim; hits: Hit[] } {
  const [id, fingerprint, now, rows] = JSON.parse(payload.toString('utf8')) as LoggedKeyed;
  return { claim: { id, fingerprint, now }, hits: rows.map(fromRow) };
}

type LoggedKeyed = [id: string, fingerprint: string, now: number, rows: LoggedHit[]];

function toRow(hit: Hit): LoggedHit {
  const row: LoggedHit = [
    hit.site,
    hit.page,
    hit.at,
    hit.count,
    hit.visitor ? hit.visitor.hi : NO_VISITOR,
    hit.visitor ? hit.visitor.lo : 0,
    hit.dimensions ? DIMENSIONS.map((d) => (hit.dimensions as DimensionValues)[d]) : 0,
  ];
  const event = hit.event;
  if (event === undefined) return row;
  const logged: LoggedEvent = [
    event.name,
    event.props.map(([key, value]): [string, string] => [key, value]),
    event.revenue?.currency ?? 0,
    event.revenue?.minor ?? 0,
  ];
  return [...row, logged] as LoggedHit;
}

function fromRow([site, page, at, count, hi, lo, dims, event]: LoggedHit): Hit {
  const hit: { -readonly [K in keyof Hit]: Hit[K] } = { site, page, at, count };
  if (hi !== NO_VISITOR) hit.visitor = { hi, lo };
  if (dims !== 0) hit.dimensions = Object.fromEntries(DIMENSIONS.map((d, i) => [d, dims[i]])) as DimensionValues;
  if (event !== undefined) hit.event = decodeEvent(event);
  return hit;
}

function decodeEvent([name, props, currency, minor]: LoggedEvent): HitEvent {
  return currency === 0 ? { name, props } : { name, props, revenue: { currency, minor } };
}
