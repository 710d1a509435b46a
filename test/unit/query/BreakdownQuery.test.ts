import fc from 'fast-check';
import type { Dimension } from '../../../src/domain/dimensions/Dimension';
import { dimensionKey } from '../../../src/domain/dimensions/dimensionKey';
import type { BreakdownTotals } from '../../../src/query/Breakdown';
import { OTHER as OTHER_KEY } from '../../../src/domain/dimensions/dimensionMarkers';
import { BreakdownQuery } from '../../../src/query/BreakdownQuery';
import type { BreakdownArgs, BreakdownResult } from '../../../src/query/BreakdownQuery';
import { encodeTopPageCursor } from '../../../src/query/topPageCursor';

const query = new BreakdownQuery({ maxPageSize: 100, maxDays: 400, dimensionVisitors: new Set<Dimension>(['device']) });
const args = (over: Partial<BreakdownArgs> = {}): BreakdownArgs => ({
  site: 's',
  dimension: 'source',
  from: new Date('2026-03-01T00:00:00Z'),
  to: new Date('2026-03-08T00:00:00Z'),
  first: 10,
  visitors: false,
  ...over,
});
const iso = (t: number): string => new Date(t).toISOString();

function totals(hits: ReadonlyArray<[string, number]>, visitorsOf?: (key: string) => number): BreakdownTotals {
  const parsed = query.parse(args());
  return { request: parsed.request, hits: new Map(hits.map(([value, n]) => [dimensionKey(value), n])), visitorsOf };
}

function readAll(
  t: BreakdownTotals,
  first: number,
): { rows: Array<{ value: string; hits: number }>; pages: BreakdownResult[] } {
  const pages: BreakdownResult[] = [];
  let after: string | null = null;
  for (;;) {
    const page = query.rank(t, query.parse(args({ first, after })));
    pages.push(page);
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  return { rows: pages.flatMap((p) => p.edges.map(({ node }) => ({ value: node.value, hits: node.hits }))), pages };
}

describe('BreakdownQuery.parse', () => {
  it.each([
    [
      'UTC days are counted as they are',
      'UTC',
      '2026-03-01T10:00:00Z',
      '2026-03-03T01:00:00Z',
      '2026-03-01T00:00:00.000Z',
      '2026-03-04T00:00:00.000Z',
    ],
    // Berlin's local days 1–3 March are 28 Feb 23:00Z … 3 Mar 23:00Z: the UTC days covering them.
    [
      'local days widen to the UTC days covering them',
      'Europe/Berlin',
      '2026-03-01T00:00:00+01:00',
      '2026-03-04T00:00:00+01:00',
      '2026-02-28T00:00:00.000Z',
      '2026-03-04T00:00:00.000Z',
    ],
    [
      'a half-hour zone widens the same way',
      'Asia/Kolkata',
      '2026-03-01T00:00:00+05:30',
      '2026-03-02T00:00:00+05:30',
      '2026-02-28T00:00:00.000Z',
      '2026-03-02T00:00:00.000Z',
    ],
  ])('%s', (_name, timeZone, from, to, spanFrom, spanTo) => {
    const { request } = query.parse(args({ timeZone, from: new Date(from), to: new Date(to) }));
    expect([iso(request.from), iso(request.to)]).toEqual([spanFrom, spanTo]);
  });

  it('reads per-value sketches only for site totals of a dimension that keeps them, and only when asked', () => {
    expect(query.parse(args({ dimension: 'device', visitors: true })).request.visitors).toBe(true);
    expect(query.parse(args({ dimension: 'device', visitors: false })).request.visitors).toBe(false);
    expect(query.parse(args({ dimension: 'device', page: '/a', visitors: true })).request.visitors).toBe(false);
    expect(query.parse(args({ dimension: 'source', visitors: true })).request.visitors).toBe(false);
  });

  it.each([
    [args({ first: 0 }), 'first must be an integer from 1 to 100 (TOP_PAGES_MAX_PAGE), got 0'],
    [args({ first: 101 }), 'first must be an integer from 1 to 100 (TOP_PAGES_MAX_PAGE), got 101'],
    [args({ after: 'nope' }), 'after must be a cursor returned by breakdown, got "nope"'],
    [
      args({ after: encodeTopPageCursor({ page: '/a', hits: 1 }) }),
      expect.stringMatching(/^after must be a cursor returned by breakdown, got "/),
    ],
    [
      args({ timeZone: 'Mars/Olympus' }),
      'timeZone must be an IANA time zone name such as "Europe/Berlin" or "UTC", got "Mars/Olympus"',
    ],
    [
      args({ to: new Date('2026-03-01T00:00:00Z') }),
      'range.from must be before range.to, got from 2026-03-01T00:00:00.000Z and to 2026-03-01T00:00:00.000Z',
    ],
    [args({ page: 'index.html' }), expect.stringContaining('page must start with "/"')],
  ])('refuses %j with a typed error', (input, message) => {
    expect(() => query.parse(input)).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT', message }));
  });

  it('refuses a range over the day limit as LIMIT_EXCEEDED naming QUERY_MAX_BUCKETS', () => {
    expect(() => query.parse(args({ to: new Date('2027-06-01T00:00:00Z') }))).toThrow(
      expect.objectContaining({
        code: 'LIMIT_EXCEEDED',
        message: 'the number of days in range for breakdown is 457, more than the limit of 400 (QUERY_MAX_BUCKETS)',
        limit: 'QUERY_MAX_BUCKETS',
        field: 'range',
      }),
    );
  });
});

describe('BreakdownQuery.rank', () => {
  it('sorts by hits, then value by UTF-16 code units, and counts "(other)" beside the values', () => {
    const result = query.rank(
      totals([
        ['b', 5],
        ['a', 5],
        ['Z', 5],
        ['(direct)', 9],
        [OTHER_KEY, 4],
        ['ünï', 1],
        ['zero', 0],
      ]),
      query.parse(args()),
    );
    expect(result.edges.map(({ node }) => [node.value, node.hits])).toEqual([
      ['(direct)', 9],
      ['Z', 5],
      ['a', 5],
      ['b', 5],
      ['ünï', 1],
    ]);
    expect(result.totalCount).toBe(5);
    expect(result.other).toBe(4);
    expect([iso(result.from), iso(result.to)]).toEqual(['2026-03-01T00:00:00.000Z', '2026-03-08T00:00:00.000Z']);
  });

  it('decodes stored keys back to their values', () => {
    const result = query.rank(totals([['a.b$c%d', 2]]), query.parse(args()));
    expect(result.edges[0]?.node.value).toBe('a.b$c%d');
  });

  it('merges visitors only for the edges returned', () => {
    const asked: string[] = [];
    const t = totals(
      [
        ['x', 3],
        ['y', 2],
        ['z', 1],
      ],
      (key) => (asked.push(key), key.length * 10),
    );
    const result = query.rank(t, query.parse(args({ first: 2 })));
    expect(result.edges.map(({ node }) => node.visitors)).toEqual([10, 10]);
    expect(asked).toEqual(['x', 'y']);
  });

  it('gives null visitors where no sketches were read', () => {
    const result = query.rank(totals([['x', 3]]), query.parse(args()));
    expect(result.edges[0]?.node.visitors).toBeNull();
  });

  it('pages through every value exactly once, ties included, whatever the page size', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.string({ minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 3 })), {
          selector: ([value]) => value,
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 7 }),
        (values, first) => {
          const t = totals(values);
          const { rows, pages } = readAll(t, first);
          const expected = values
            .filter(([value, hits]) => hits > 0 && value !== OTHER_KEY)
            .map(([value, hits]) => ({ value, hits }))
            .sort((a, b) => b.hits - a.hits || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
          expect(rows).toEqual(expected);
          for (const page of pages) expect(page.totalCount).toBe(expected.length);
        },
      ),
    );
  });
});
