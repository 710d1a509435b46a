/**
 * Who sent a request, decided once per request (HTTP) or per connection (WebSocket):
 * - `open`: auth is off (no keys configured, loopback or TALLY_AUTH=off): everything is allowed;
 * - `key`: a known secret key, with its scopes and sites;
 * - `anonymous`: auth is on and no key came: only unprotected fields (`__typename`, introspection);
 * - `invalid`: a key came that the server does not know: every operation fails UNAUTHENTICATED.
 */
import type { Scope } from './Scope';

export type Principal =
  | { readonly kind: 'open' }
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'invalid'; readonly reason: string }
  | {
      readonly kind: 'key';
      readonly name: string;
      readonly scopes: ReadonlySet<Scope>;
      readonly sites: ReadonlySet<string> | undefined;
    };

export const OPEN: Principal = { kind: 'open' };

/** For logs and rate-limit buckets: the key's name, never its secret. */
export function principalLabel(principal: Principal): string | undefined {
  return principal.kind === 'key' ? principal.name : undefined;
}
