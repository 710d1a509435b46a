import { fingerprint, parseIdempotencyKey } from '../../../src/ingest/IdempotencyKey';
import { WriterLanes } from '../../../src/ingest/WriterLanes';

describe('parseIdempotencyKey', () => {
  it.each([
    ['', 'got ""'],
    ['a\u0000b', 'got "a\\u0000b"'],
    ['x'.repeat(256), `got "${'x'.repeat(60)}…" (256 characters)`],
  ])('rejects %j', (raw, got) => {
    expect(() => parseIdempotencyKey(raw)).toThrow(
      `idempotencyKey must be 1–255 characters without control characters, ${got}`,
    );
  });

  it('hashes scope and key into the ledger id, so scopes never share a key', () => {
    const plain = parseIdempotencyKey('k');
    expect(plain.id).toMatch(/^[0-9a-f]{64}$/);
    expect(parseIdempotencyKey('k', 'tenant').id).not.toBe(plain.id);
    expect(parseIdempotencyKey('x'.repeat(255)).key).toHaveLength(255);
  });
});

describe('fingerprint', () => {
  const at = new Date('2026-01-01T00:00:00Z');
  it.each([
    ['count defaults to 1', [{ site: 's', page: '/', count: 1 }], [{ site: 's', page: '/' }], true],
    ['a missing at is not the arrival time', [{ site: 's', page: '/' }], [{ site: 's', page: '/', at }], false],
    [
      'order matters',
      [
        { site: 's', page: '/a' },
        { site: 's', page: '/b' },
      ],
      [
        { site: 's', page: '/b' },
        { site: 's', page: '/a' },
      ],
      false,
    ],
    ['count matters', [{ site: 's', page: '/', count: 2 }], [{ site: 's', page: '/', count: 3 }], false],
    ['an event matters', [{ site: 's', page: '/' }], [{ site: 's', page: '/', event: 'A' }], false],
    ['the event name matters', [{ site: 's', page: '/', event: 'A' }], [{ site: 's', page: '/', event: 'B' }], false],
    [
      'properties matter',
      [{ site: 's', page: '/', event: 'A', props: [{ key: 'k', value: '1' }] }],
      [{ site: 's', page: '/', event: 'A', props: [{ key: 'k', value: '2' }] }],
      false,
    ],
    [
      'revenue matters',
      [{ site: 's', page: '/', event: 'A', revenue: { amount: '1.00', currency: 'EUR' } }],
      [{ site: 's', page: '/', event: 'A', revenue: { amount: '1.00', currency: 'USD' } }],
      false,
    ],
  ])('%s', (_label, a, b, same) => {
    expect(fingerprint('recordHits', a) === fingerprint('recordHits', b)).toBe(same);
  });

  it('differs between recordHit and recordHits', () => {
    const hits = [{ site: 's', page: '/', at }];
    expect(fingerprint('recordHit', hits)).not.toBe(fingerprint('recordHits', hits));
  });
});

describe('WriterLanes', () => {
  it('numbers the flushes of a lane and retires a lane at its first failure', () => {
    let n = 0;
    const lanes = new WriterLanes(1, () => `L${++n}`);
    const first = lanes.acquire();
    lanes.succeeded(first);
    const second = lanes.acquire();
    expect([first, second]).toEqual([
      { lane: 'L1', seq: 1 },
      { lane: 'L1', seq: 2 },
    ]);
    lanes.failedWith(second, true);
    expect(lanes.isDefinitelyFailed(second)).toBe(true);
    expect(lanes.acquire()).toEqual({ lane: 'L2', seq: 1 });
  });

  it('does not call an attempt definitely failed when its outcome is unknown', () => {
    const lanes = new WriterLanes(1);
    const attempt = lanes.acquire();
    lanes.failedWith(attempt, false);
    expect(lanes.isDefinitelyFailed(attempt)).toBe(false);
    expect(lanes.acquire().lane).not.toBe(attempt.lane);
  });
});
