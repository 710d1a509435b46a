/**
 * Authorization for plain Fastify routes (export, dashboards): the same keys, scopes and sites as GraphQL.
 * installAuth decides each request's principal once, from its `Authorization` header, before rate limiting;
 * routes then call `await authorizeRequest(request, 'read', site)`, which throws UnauthenticatedError (401)
 * or ForbiddenError (403); the server's error handler renders them as `{"errors":[…]}` with that status.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ALL_SITES } from './authorize';
import { authorize } from './authorize';
import type { KeyRing } from './KeyRing';
import type { Principal } from './Principal';
import type { Scope } from './Scope';

declare module 'fastify' {
  interface FastifyInstance {
    tallyKeyRing: KeyRing;
  }
  interface FastifyRequest {
    tallyPrincipal: Principal | null;
  }
}

export function installAuth(app: FastifyInstance, keyRing: KeyRing): void {
  app.decorate('tallyKeyRing', keyRing);
  app.decorateRequest('tallyPrincipal', null);
  app.addHook('onRequest', async (request) => {
    request.tallyPrincipal = keyRing.authenticate(request.headers.authorization);
  });
}

/** Who sent this request (auth off: `open`). */
export function principalOf(request: FastifyRequest): Principal {
  request.tallyPrincipal ??= request.server.tallyKeyRing.authenticate(request.headers.authorization);
  return request.tallyPrincipal;
}

/**
 * Throws unless the request's key has `scope` for `site` (omitted: an operation on no particular site;
 * ALL_SITES: one that needs a key valid for every site). Returns the principal for logging.
 */
export async function authorizeRequest(
  request: FastifyRequest,
  scope: Scope,
  site?: string | readonly string[] | typeof ALL_SITES,
): Promise<Principal> {
  const principal = principalOf(request);
  authorize(principal, scope, site === undefined ? [] : typeof site === 'string' ? [site] : site);
  return principal;
}
