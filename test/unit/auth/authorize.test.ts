import { ALL_SITES, authorize } from '../../../src/auth/authorize';
import type { Principal } from '../../../src/auth/Principal';
import type { Scope } from '../../../src/auth/Scope';
import { ForbiddenError } from '../../../src/errors/ForbiddenError';
import { UnauthenticatedError } from '../../../src/errors/UnauthenticatedError';

const key = (scopes: Scope[], sites?: string[]): Principal => ({
  kind: 'key',
  name: 'k',
  scopes: new Set(scopes),
  sites: sites === undefined ? undefined : new Set(sites),
});

/** The error `authorize` throws, or undefined when it allows. */
function refusal(principal: Principal, scope: Scope, sites: readonly string[] | typeof ALL_SITES): unknown {
  try {
    authorize(principal, scope, sites);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('authorize', () => {
  it('allows everything when auth is off (open)', () => {
    for (const scope of ['ingest', 'read', 'admin'] as const) {
      expect(refusal({ kind: 'open' }, scope, ALL_SITES)).toBeUndefined();
      expect(refusal({ kind: 'open' }, scope, ['any.example'])).toBeUndefined();
    }
  });

  it.each([
    [
      'anonymous, naming the scope and how to send a key',
      { kind: 'anonymous' } as Principal,
      'this operation needs an API key with scope "read": send "Authorization: Bearer <secret>"',
    ],
    [
      'an invalid key, with its reason',
      { kind: 'invalid', reason: 'the API key is not known to this server' } as Principal,
      'the API key is not known to this server',
    ],
  ])('refuses %s as UNAUTHENTICATED', (_label, principal, message) => {
    const error = refusal(principal, 'read', ['a.example']);
    expect(error).toBeInstanceOf(UnauthenticatedError);
    expect(error).toMatchObject({ code: 'UNAUTHENTICATED', httpStatus: 401, message });
  });

  it.each([
    ['ingest', ['read'], 'this operation needs scope "ingest", which the API key lacks'],
    ['read', ['ingest'], 'this operation needs scope "read", which the API key lacks'],
    ['admin', ['ingest', 'read'], 'this operation needs scope "admin", which the API key lacks'],
  ] as const)('refuses scope %s to a key with %j as FORBIDDEN', (scope, scopes, message) => {
    const error = refusal(key([...scopes]), scope, ['a.example']);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ code: 'FORBIDDEN', httpStatus: 403, message });
  });

  it('allows a key every site when it lists none, including operations on all sites', () => {
    expect(refusal(key(['read']), 'read', ['a.example', 'b.example'])).toBeUndefined();
    expect(refusal(key(['read']), 'read', ALL_SITES)).toBeUndefined();
    expect(refusal(key(['read']), 'read', [])).toBeUndefined();
  });

  it('allows a key with a site list only its sites, naming the first other site', () => {
    const pipeline = key(['ingest'], ['a.example', 'b.example']);
    expect(refusal(pipeline, 'ingest', ['a.example', 'b.example'])).toBeUndefined();
    expect(refusal(pipeline, 'ingest', [])).toBeUndefined();
    expect(refusal(pipeline, 'ingest', ['a.example', 'c.example', 'd.example'])).toMatchObject({
      code: 'FORBIDDEN',
      message: 'the API key is not valid for site "c.example" (scope "ingest")',
    });
  });

  it('refuses an operation on all sites to a key with a site list', () => {
    expect(refusal(key(['admin'], ['a.example']), 'admin', ALL_SITES)).toMatchObject({
      code: 'FORBIDDEN',
      message: 'this operation is not about one site and needs an API key valid for all sites',
    });
  });

  it('checks the scope before the sites', () => {
    expect(refusal(key(['read'], ['a.example']), 'ingest', ['z.example'])).toMatchObject({
      message: 'this operation needs scope "ingest", which the API key lacks',
    });
  });

  it('shows a long or odd site name shortened and quoted', () => {
    const error = refusal(key(['read'], ['a.example']), 'read', [`${'x'.repeat(70)}\n`]);
    expect(error).toMatchObject({
      message: `the API key is not valid for site "${'x'.repeat(60)}…" (71 characters) (scope "read")`,
    });
  });
});
