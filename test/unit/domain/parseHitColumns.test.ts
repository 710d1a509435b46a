import type { HitLimits } from '../../../src/domain/Hit';
import type { HitColumns } from '../../../src/domain/HitColumns';
import { InputRejectedError } from '../../../src/domain/InputRejectedError';
import { LimitExceededError } from '../../../src/errors/LimitExceededError';
import { parseHitBatch } from '../../../src/domain/parseHit';
import { parseHitColumns } from '../../../src/domain/parseHitColumns';
import { RejectReason } from '../../../src/domain/RejectReason';

const now = Date.parse('2026-11-21T12:00:00Z');
const limits: HitLimits = { maxCount: 1000, maxClockSkewMs: 60_000, maxBatchSize: 4 };
const base: HitColumns = { sites: ['a.com', 'b.org'], pages: ['/', '/x'], siteIndex: [1, 0], pageIndex: [0, 1] };

function rejection(columns: HitColumns): { reason: RejectReason; message: string; field: string | undefined } {
  try {
    parseHitColumns(columns, { now, limits, path: 'columns' });
  } catch (error) {
    // A batch over its limit is LIMIT_EXCEEDED, keeping the reason and field of an input rejection.
    if (error instanceof LimitExceededError) {
      return { reason: error.reason as RejectReason, message: error.message, field: error.field };
    }
    if (error instanceof InputRejectedError)
      return { reason: error.reason, message: error.message, field: error.field };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('parseHitColumns', () => {
  it('reads hit i from every column at i, defaulting at to now and count to 1', () => {
    expect(parseHitColumns(base, { now, limits })).toEqual([
      { site: 'b.org', page: '/', at: now, count: 1 },
      { site: 'a.com', page: '/x', at: now, count: 1 },
    ]);
    const at = [now - 86_400_000, now];
    expect(
      parseHitColumns({ sites: ['s'], pages: ['/p'], pageIndex: [0, 0], atMs: at, count: [3, 1] }, { now, limits }),
    ).toEqual([
      { site: 's', page: '/p', at: at[0], count: 3 },
      { site: 's', page: '/p', at: now, count: 1 },
    ]);
  });

  it('gives the same hits as recordHits would for the same batch', () => {
    const rows = [
      { site: 'b.org', page: '/x', at: new Date(now - 5), count: 2 },
      { site: 'a.com', page: '/', at: new Date(now - 7), count: 1 },
      { site: 'b.org', page: '/', at: new Date(now), count: 9 },
    ];
    const columns: HitColumns = {
      sites: ['a.com', 'b.org'],
      pages: ['/', '/x'],
      siteIndex: [1, 0, 1],
      pageIndex: [1, 0, 0],
      atMs: rows.map((r) => r.at.getTime()),
      count: rows.map((r) => r.count),
    };
    expect(parseHitColumns(columns, { now, limits })).toEqual(parseHitBatch(rows, { now, limits }));
  });

  it('accepts an empty batch', () => {
    expect(parseHitColumns({ sites: [], pages: [], pageIndex: [] }, { now, limits })).toEqual([]);
  });

  it.each<[string, HitColumns, RejectReason, string, string]>([
    [
      'too many hits',
      { ...base, siteIndex: null, sites: ['a'], pageIndex: [0, 0, 0, 0, 0] },
      RejectReason.BATCH_TOO_LARGE,
      'columns.pageIndex',
      'the number of hits in columns.pageIndex is 5, more than the limit of 4 (INGEST_MAX_BATCH)',
    ],
    [
      'a bad site in the dictionary',
      { ...base, sites: ['a.com', 'b/c'] },
      RejectReason.SITE_HAS_SLASH,
      'columns.sites[1]',
      'columns.sites[1] must not contain "/", got "b/c"',
    ],
    [
      'a bad page in the dictionary',
      { ...base, pages: ['/', 'x'] },
      RejectReason.PAGE_NOT_ABSOLUTE,
      'columns.pages[1]',
      'columns.pages[1] must start with "/", got "x"',
    ],
    [
      'no siteIndex with two sites',
      { ...base, siteIndex: null },
      RejectReason.COLUMNS_MISMATCH,
      'columns.siteIndex',
      'columns.siteIndex is required when sites holds more than one site, got 2 sites and no siteIndex',
    ],
    [
      'a short siteIndex',
      { ...base, siteIndex: [0] },
      RejectReason.COLUMNS_MISMATCH,
      'columns.siteIndex',
      'columns.siteIndex must hold one value per hit (2, the length of pageIndex), got 1',
    ],
    [
      'a long atMs',
      { ...base, atMs: [now, now, now] },
      RejectReason.COLUMNS_MISMATCH,
      'columns.atMs',
      'columns.atMs must hold one value per hit (2, the length of pageIndex), got 3',
    ],
    [
      'a short count',
      { ...base, count: [] },
      RejectReason.COLUMNS_MISMATCH,
      'columns.count',
      'columns.count must hold one value per hit (2, the length of pageIndex), got 0',
    ],
    [
      'no pages for hits',
      { sites: ['a'], pages: [], pageIndex: [0] },
      RejectReason.COLUMNS_MISMATCH,
      'columns.pages',
      'columns.pages must not be empty when pageIndex holds hits, got none for 1 hits',
    ],
    [
      'a page index past the end',
      { ...base, pageIndex: [0, 2] },
      RejectReason.INDEX_OUT_OF_RANGE,
      'columns.pageIndex[1]',
      'columns.pageIndex[1] must be an index from 0 to 1, got 2',
    ],
    [
      'a negative site index',
      { ...base, siteIndex: [0, -1] },
      RejectReason.INDEX_OUT_OF_RANGE,
      'columns.siteIndex[1]',
      'columns.siteIndex[1] must be an index from 0 to 1, got -1',
    ],
    [
      'a fractional instant',
      { ...base, atMs: [now, now + 0.5] },
      RejectReason.AT_NOT_INTEGER,
      'columns.atMs[1]',
      `columns.atMs[1] must be a whole number of milliseconds since 1970-01-01T00:00:00Z, got ${now + 0.5}`,
    ],
    [
      'an instant before the epoch',
      { ...base, atMs: [-1, now] },
      RejectReason.AT_BEFORE_EPOCH,
      'columns.atMs[0]',
      'columns.atMs[0] must be on or after 1970-01-01T00:00:00.000Z, got 1969-12-31T23:59:59.999Z',
    ],
    [
      'an instant past what Date can print',
      { ...base, atMs: [now, 9e15] },
      RejectReason.AT_IN_FUTURE,
      'columns.atMs[1]',
      'columns.atMs[1] must be no later than 2026-11-21T12:01:00.000Z (server clock plus 60000 ms), got 9000000000000000 ms since the epoch',
    ],
    [
      'a zero count',
      { ...base, count: [1, 0] },
      RejectReason.COUNT_NOT_POSITIVE_INTEGER,
      'columns.count[1]',
      'columns.count[1] must be a positive integer, got 0',
    ],
    [
      'a count over the limit',
      { ...base, count: [1001, 1] },
      RejectReason.COUNT_TOO_LARGE,
      'columns.count[0]',
      'columns.count[0] must be at most 1000, got 1001',
    ],
  ])('refuses %s, naming the value', (_name, columns, reason, field, message) => {
    expect(rejection(columns)).toEqual({ reason, field, message });
  });
});
