/**
 * The keyed 64-bit hash of an opaque visitor id (a cookie or an app's user id): the first 8 bytes of
 * HMAC-SHA-256(secret, id). Without the secret, a stored register value says nothing about who the visitor is;
 * only register updates derived from this hash are ever stored, never the hash or the id.
 */
import { createHmac } from 'node:crypto';
import type { Hash64 } from './Hash64';

export function visitorHash(secret: string | Uint8Array, visitorId: string): Hash64 {
  const digest = createHmac('sha256', secret).update(visitorId, 'utf8').digest();
  return { hi: digest.readUInt32BE(0), lo: digest.readUInt32BE(4) };
}
