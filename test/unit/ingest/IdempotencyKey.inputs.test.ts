/**
 * Fingerprints of requests carrying visitor or dimension inputs (issues 19, 20): what the client sent, so a retry
 * matches, keyed with the database's visitor secret, so the ledger holds nothing from which an id or an address
 * could be guessed; requests without such inputs keep the fingerprint they always had (IdempotencyKey.pinned).
 */
import { createHash, createHmac } from 'node:crypto';
import { columnsFingerprint, fingerprint } from '../../../src/ingest/IdempotencyKey';

const SECRET = new Uint8Array(32).fill(9);
const hmac = (text: string, secret = SECRET) => createHmac('sha256', secret).update(text).digest('base64url');

describe('fingerprints with visitor and dimension inputs', () => {
  it('keeps the unkeyed fingerprint of a request without them, whatever the secret', () => {
    expect(fingerprint('recordHit', [{ site: 's', page: '/' }], SECRET)).toBe(
      '-LLCBOIwlTjs0OSzFWCA49NtXkiQ5fpmcvC8H8f7Sa8',
    );
  });

  it('extends each hit with its inputs and explicit values, keyed with HMAC under the secret', () => {
    const inputs = [
      { site: 's', page: '/', visitor: 'v-1', clientIp: '203.0.113.7' },
      { site: 's', page: '/b', count: 2, dimensions: { country: 'DE' } },
      { site: 's', page: '/c' },
    ];
    const canonical = JSON.stringify([
      'recordHits',
      [
        ['s', '/', null, 1, 'v-1', null, null, '203.0.113.7', null],
        ['s', '/b', null, 2, null, null, null, null, [null, null, null, null, null, null, null, 'DE']],
        ['s', '/c', null, 1],
      ],
    ]);
    expect(fingerprint('recordHits', inputs, SECRET)).toBe(hmac(canonical));
    expect(fingerprint('recordHits', inputs, new Uint8Array(32).fill(1))).not.toBe(hmac(canonical));
    expect(fingerprint('recordHits', [{ ...inputs[0], visitor: 'v-2' }, inputs[1], inputs[2]], SECRET)).not.toBe(
      hmac(canonical),
    );
  });

  it('keeps a columnar batch without dictionaries unkeyed, and appends them, keyed, when it has any', () => {
    const columns = { sites: ['s'], pages: ['/'], pageIndex: [0, 0] };
    expect(columnsFingerprint(columns, SECRET)).toBe(
      createHash('sha256')
        .update(JSON.stringify(['recordHitColumns', ['s'], ['/'], null, [0, 0], null, null]))
        .digest('base64url'),
    );
    const withInputs = { ...columns, visitors: ['a'], visitorIndex: [0, -1], dimensions: [{ utmSource: 'x' }] };
    expect(columnsFingerprint(withInputs, SECRET)).toBe(
      hmac(
        JSON.stringify([
          'recordHitColumns',
          ['s'],
          ['/'],
          null,
          [0, 0],
          null,
          null,
          ['a'],
          [0, -1],
          null,
          null,
          null,
          null,
          null,
          null,
          [[null, 'x', null, null, null, null, null, null]],
          null,
        ]),
      ),
    );
  });
});
