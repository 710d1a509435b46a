/**
 * The keyed 64-bit hash of a cookieless beacon visitor: HMAC-SHA-256 under a salt the caller rotates, over the site,
 * the client IP and the User-Agent. Fields are JSON-encoded so no two different triples share an input ("a" + "b,c"
 * never reads as "a,b" + "c"). Only register updates derived from the hash are stored, never the IP or the UA.
 */
import { createHmac } from 'node:crypto';
import type { Hash64 } from './Hash64';

export interface BeaconVisitor {
  /** The secret that scopes the hash; rotating it starts everyone afresh: one visitor under two salts counts twice. */
  readonly salt: string | Uint8Array;
  readonly site: string;
  readonly clientIp: string;
  readonly userAgent: string;
}

export function beaconVisitorHash({ salt, site, clientIp, userAgent }: BeaconVisitor): Hash64 {
  const digest = createHmac('sha256', salt)
    .update(JSON.stringify([site, clientIp, userAgent]), 'utf8')
    .digest();
  return { hi: digest.readUInt32BE(0), lo: digest.readUInt32BE(4) };
}
