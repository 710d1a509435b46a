/**
 * The configured keys, as read from TALLY_KEYS_FILE / TALLY_KEYS_JSON (see README "Security"). Secret keys are
 * stored only as the SHA-256 of the secret; site keys are public by design (embedded in pages, ingest-only).
 */
import type { Scope } from './Scope';

export interface SecretKey {
  /** Shown in logs and metrics; never the secret. */
  readonly name: string;
  /** SHA-256 of the secret, 32 bytes. */
  readonly sha256: Buffer;
  readonly scopes: ReadonlySet<Scope>;
  /** Undefined: every site. */
  readonly sites: ReadonlySet<string> | undefined;
}

export interface SiteKey {
  readonly key: string;
  readonly site: string;
  /** Exact `Origin` header values allowed to send beacons with this key. */
  readonly origins: ReadonlySet<string>;
  /** Keep the query string of `page` (default: dropped, it often carries personal data). */
  readonly keepQuery: boolean;
}

export interface Keys {
  readonly keys: readonly SecretKey[];
  readonly siteKeys: readonly SiteKey[];
}

export const NO_KEYS: Keys = { keys: [], siteKeys: [] };
