/**
 * Authenticates presented secrets against the configured keys without a database round trip. A secret is
 * hashed once and compared with every key's hash in constant time, so neither the comparison nor the
 * number of comparisons depends on how much of a secret was right.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Keys, SiteKey } from './Keys';
import { OPEN } from './Principal';
import type { Principal } from './Principal';

/** Longer headers are refused before hashing: no one's secret is 4 KB. */
const MAX_AUTHORIZATION_LENGTH = 512;

export class KeyRing {
  /**
   * True when at least one secret key is configured: GraphQL and the protected routes then need one. Site
   * keys alone do not switch it on: they cannot authenticate anything but beacons.
   */
  readonly enabled: boolean;
  private readonly siteKeyHashes: ReadonlyArray<{ readonly sha256: Buffer; readonly siteKey: SiteKey }>;

  constructor(
    private readonly config: Keys,
    /** TALLY_AUTH=off: GraphQL is open even when secret keys are configured; site keys still guard beacons. */
    authOff = false,
  ) {
    this.enabled = !authOff && config.keys.length > 0;
    this.siteKeyHashes = config.siteKeys.map((siteKey) => ({ sha256: sha256(siteKey.key), siteKey }));
  }

  /** The principal of an `Authorization` header value (HTTP) or `connectionParams.authorization` (WebSocket). */
  authenticate(authorization: unknown): Principal {
    if (!this.enabled) return OPEN;
    if (authorization === undefined || authorization === null || authorization === '') return { kind: 'anonymous' };
    if (typeof authorization !== 'string' || authorization.length > MAX_AUTHORIZATION_LENGTH) {
      return { kind: 'invalid', reason: 'the authorization must be "Bearer <secret>"' };
    }
    const match = /^Bearer +(\S+)$/i.exec(authorization.trim());
    if (!match) return { kind: 'invalid', reason: 'the authorization must be "Bearer <secret>"' };
    const presented = sha256(match[1]!);
    let found: (typeof this.config.keys)[number] | undefined;
    for (const key of this.config.keys) {
      // No early exit: every key is compared whatever matched.
      if (timingSafeEqual(presented, key.sha256) && found === undefined) found = key;
    }
    if (!found) return { kind: 'invalid', reason: 'the API key is not known to this server' };
    return { kind: 'key', name: found.name, scopes: found.scopes, sites: found.sites };
  }

  /** The site key a beacon names, compared like a secret (it is public, but nothing is gained by leaking it). */
  siteKey(presented: string): SiteKey | undefined {
    const hash = sha256(presented);
    let found: SiteKey | undefined;
    for (const entry of this.siteKeyHashes) {
      if (timingSafeEqual(hash, entry.sha256) && found === undefined) found = entry.siteKey;
    }
    return found;
  }

  /** Every origin some site key allows: CORS headers (before the body names a key) go only to these. */
  isKnownOrigin(origin: string): boolean {
    return this.config.siteKeys.some((siteKey) => siteKey.origins.has(origin));
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
