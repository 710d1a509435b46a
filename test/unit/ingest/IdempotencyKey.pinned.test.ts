/**
 * Ledger ids and fingerprints are stored, and a retry may reach another process or a newer version: each is
 * pinned to a literal worked out once (and checked with an independent sha256), so a change of hashing or of
 * canonical form fails here instead of making retries look like new requests.
 */
import { columnsFingerprint, fingerprint, parseIdempotencyKey } from '../../../src/ingest/IdempotencyKey';

const AT = new Date('2026-01-01T00:00:00Z');

describe('idempotency values stored in the ledger, in every process', () => {
  it.each([
    ['', 'k', 'f6dc1034b093dd79d1b96f328cb1e489ff00868c9a1fdb2f1f929e5bf31f9e51'],
    ['tenant', 'k', '472c3da6b0813e26c0b398e0f42ca76223a24fc6cfc724b44a355d948964885c'],
  ])('keys (scope %j, key %j) to ledger id %s: sha256 of scope, NUL, key', (scope, key, id) => {
    expect(parseIdempotencyKey(key, scope).id).toBe(id);
  });

  it('fingerprints recordHits as sha256 of its canonical JSON, base64url', () => {
    // ["recordHits",[["s","/",1767225600000,2],["s","/b",null,1]]]
    expect(
      fingerprint('recordHits', [
        { site: 's', page: '/', at: AT, count: 2 },
        { site: 's', page: '/b' },
      ]),
    ).toBe('27U-OP5DOGYsaXnyIEuDScyWqmYFJeR6J3-zMpls5U4');
  });

  it('fingerprints recordHit and recordHitColumns', () => {
    expect(fingerprint('recordHit', [{ site: 's', page: '/' }])).toBe('-LLCBOIwlTjs0OSzFWCA49NtXkiQ5fpmcvC8H8f7Sa8');
    expect(
      columnsFingerprint({
        sites: ['s'],
        pages: ['/', '/b'],
        pageIndex: [0, 1],
        atMs: [AT.getTime(), AT.getTime()],
        count: [2, 1],
      }),
    ).toBe('70tEYCAkf6nh-UOj0JwHwhLwOyV5tU5ddz-wdTG03xE');
  });
});
