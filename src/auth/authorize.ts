/**
 * The one authorization decision: may this principal use `scope` on these sites? `sites` is the list of
 * sites the operation touches, or ALL_SITES for operations that are not about one site (impressions,
 * preallocation of everything): ALL_SITES, which needs a key without a site list. Errors name the scope or site.
 */
import { ForbiddenError } from '../errors/ForbiddenError';
import { UnauthenticatedError } from '../errors/UnauthenticatedError';
import { describe } from '../errors/describe';
import type { Principal } from './Principal';
import type { Scope } from './Scope';

/** Passed as `sites` by operations that are not about one site: only keys without a site list may use them. */
export const ALL_SITES: unique symbol = Symbol('all sites');

export function authorize(principal: Principal, scope: Scope, sites: readonly string[] | typeof ALL_SITES): void {
  switch (principal.kind) {
    case 'open':
      return;
    case 'anonymous':
      throw new UnauthenticatedError(
        `this operation needs an API key with scope "${scope}": send "Authorization: Bearer <secret>"`,
      );
    case 'invalid':
      throw new UnauthenticatedError(principal.reason);
    case 'key':
      break;
  }
  if (!principal.scopes.has(scope))
    throw new ForbiddenError(`this operation needs scope "${scope}", which the API key lacks`);
  if (principal.sites === undefined) return;
  if (sites === ALL_SITES) {
    throw new ForbiddenError(`this operation is not about one site and needs an API key valid for all sites`);
  }
  for (const site of sites) {
    if (!principal.sites.has(site)) {
      throw new ForbiddenError(`the API key is not valid for site ${describe(site)} (scope "${scope}")`);
    }
  }
}
