import type { HitLimits } from '../../../src/domain/Hit';
import { InputRejectedError } from '../../../src/domain/InputRejectedError';
import { parseHit, parseHitBatch } from '../../../src/domain/parseHit';
import { RejectReason } from '../../../src/domain/RejectReason';

const now = Date.parse('2026-11-21T12:00:00Z');
const limits: HitLimits = { maxCount: 1000, maxClockSkewMs: 60_000, maxBatchSize: 3 };
const ok = { site: 'example.com', page: '/' };

function rejection(input: Parameters<typeof parseHit>[0]): { reason: RejectReason; message: string } {
  try {
    parseHit(input, { now, limits });
  } catch (error) {
    if (error instanceof InputRejectedError) return { reason: error.reason, message: error.message };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('parseHit', () => {
  it.each([
    [{ ...ok, site: '' }, RejectReason.SITE_EMPTY, 'site must not be empty'],
    [{ ...ok, site: 'x'.repeat(254) }, RejectReason.SITE_TOO_LONG, 'site must be at most 253 characters, got 254'],
    [{ ...ok, site: 'a/b' }, RejectReason.SITE_HAS_SLASH, 'site must not contain "/", got "a/b"'],
    [
      { ...ok, site: 'a b' },
      RejectReason.SITE_HAS_WHITESPACE_OR_CONTROL,
      'site must not contain whitespace or control characters, got "a b"',
    ],
    [
      { ...ok, site: 'a\tb' },
      RejectReason.SITE_HAS_WHITESPACE_OR_CONTROL,
      'site must not contain whitespace or control characters, got "a\\tb"',
    ],
    [
      { ...ok, site: 'a\u0000b' },
      RejectReason.SITE_HAS_WHITESPACE_OR_CONTROL,
      'site must not contain whitespace or control characters, got "a\\u0000b"',
    ],
    [{ ...ok, page: 'index.html' }, RejectReason.PAGE_NOT_ABSOLUTE, 'page must start with "/", got "index.html"'],
    [{ ...ok, page: '' }, RejectReason.PAGE_NOT_ABSOLUTE, 'page must start with "/", got ""'],
    [
      { ...ok, page: `/${'p'.repeat(2048)}` },
      RejectReason.PAGE_TOO_LONG,
      'page must be at most 2048 characters, got 2049',
    ],
    [{ ...ok, page: '/a\nb' }, RejectReason.PAGE_HAS_CONTROL, 'page must not contain control characters, got "/a\\nb"'],
    [{ ...ok, page: '/\ud800' }, RejectReason.MALFORMED_UNICODE, 'page must be well-formed Unicode, got "/\\ud800"'],
    [
      { ...ok, at: new Date('1969-12-31T23:59:59Z') },
      RejectReason.AT_BEFORE_EPOCH,
      'at must be on or after 1970-01-01T00:00:00.000Z, got 1969-12-31T23:59:59.000Z',
    ],
    [
      { ...ok, at: new Date('2026-11-21T12:01:00.001Z') },
      RejectReason.AT_IN_FUTURE,
      'at must be no later than 2026-11-21T12:01:00.000Z (server clock plus 60000 ms), got 2026-11-21T12:01:00.001Z',
    ],
    [{ ...ok, count: 0 }, RejectReason.COUNT_NOT_POSITIVE_INTEGER, 'count must be a positive integer, got 0'],
    [{ ...ok, count: -3 }, RejectReason.COUNT_NOT_POSITIVE_INTEGER, 'count must be a positive integer, got -3'],
    [{ ...ok, count: 1.5 }, RejectReason.COUNT_NOT_POSITIVE_INTEGER, 'count must be a positive integer, got 1.5'],
    [{ ...ok, count: 1001 }, RejectReason.COUNT_TOO_LARGE, 'count must be at most 1000, got 1001'],
  ])('rejects %o with %s: %s', (input, reason, message) => {
    expect(rejection(input)).toEqual({ reason, message });
  });

  it.each([
    '/',
    '/a.b',
    '/$set',
    '/100%',
    '/search?q=x&y=1',
    '/ünïcødé/路径',
    '/emoji/😀',
    '/a.b.c/$x/%2e',
    `/${'p'.repeat(2047)}`,
  ])('accepts the page %s as it is', (page) => {
    expect(parseHit({ ...ok, page }, { now, limits }).page).toBe(page);
  });

  it('defaults at to the server clock and count to 1', () => {
    expect(parseHit(ok, { now, limits })).toEqual({ site: 'example.com', page: '/', at: now, count: 1 });
  });

  it('accepts historical hits and hits within the clock skew', () => {
    expect(parseHit({ ...ok, at: new Date(0) }, { now, limits }).at).toBe(0);
    expect(parseHit({ ...ok, at: new Date(now + 60_000) }, { now, limits }).at).toBe(now + 60_000);
  });
});

describe('parseHitBatch', () => {
  it('names the bad hit by its index', () => {
    expect(() => parseHitBatch([ok, { ...ok, page: 'x' }], { now, limits })).toThrow(
      'hits[1].page must start with "/", got "x"',
    );
  });

  it('rejects a batch over the maximum size as LIMIT_EXCEEDED naming INGEST_MAX_BATCH, like a split request', () => {
    expect(() => parseHitBatch([ok, ok, ok, ok], { now, limits })).toThrow(
      expect.objectContaining({
        code: 'LIMIT_EXCEEDED',
        message: 'the number of hits in hits is 4, more than the limit of 3 (INGEST_MAX_BATCH)',
        limit: 'INGEST_MAX_BATCH',
        max: 3,
        value: 4,
        field: 'hits',
        reason: 'BATCH_TOO_LARGE',
      }),
    );
  });

  it('accepts an empty batch', () => {
    expect(parseHitBatch([], { now, limits })).toEqual([]);
  });
});
