/**
 * One counted log line: the hit, and what the line says about its visitor and dimensions, in the form the server
 * takes them (a mutation's `visitor`, `referrer`, `userAgent`, `clientIp` and explicit UTM values). The server
 * keys the visitor and derives the dimensions; nothing here is stored as it is.
 */
import type { UtmDimensions } from '../domain/dimensions/utmFrom';

export interface LogHit {
  readonly site: string;
  readonly page: string;
  /** Epoch milliseconds, UTC. */
  readonly at: number;
  readonly count: number;
  /** A transient visitor id: hex(sha256(client address, User-Agent, UTC day)); absent with --no-visitors. */
  readonly visitor?: string | undefined;
  /** The logged referrer, unescaped and cut to what the server accepts. */
  readonly referrer?: string | undefined;
  readonly userAgent?: string | undefined;
  /** The client address, normalised (parseClientIp); absent when the line has none or a malformed one. */
  readonly clientIp?: string | undefined;
  /** UTM values of the request's query, when the page drops its query (the server reads them from the page else). */
  readonly utm?: UtmDimensions | undefined;
}
