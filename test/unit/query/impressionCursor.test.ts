import { BadUserInputError } from '../../../src/errors/BadUserInputError';
import {
  decodeItemCursor,
  decodePairCursor,
  encodeItemCursor,
  encodePairCursor,
} from '../../../src/query/impressionCursor';
import { connection } from '../../../src/query/ImpressionQueries';

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('impression cursors', () => {
  it.each([
    { userId: 'u', itemId: 'i', count: 1 },
    { userId: 'ü 😀', itemId: '"quoted",\\', count: 2 ** 40 },
  ])('round-trip the pair position %o', (pair) => {
    const cursor = encodePairCursor(pair);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodePairCursor(cursor)).toEqual(pair);
  });

  it('round-trips an item position', () => {
    expect(decodeItemCursor(encodeItemCursor({ itemId: 'x', count: 7 }))).toEqual({ itemId: 'x', count: 7 });
  });

  it.each([
    ['garbage', 'abc'],
    ['not base64url', 'a+b/'],
    ['not JSON', Buffer.from('{nope').toString('base64url')],
    ['an item cursor', encodeItemCursor({ itemId: 'x', count: 1 })],
    ['a zero count', b64(['p', 0, 'u', 'i'])],
    ['a fractional count', b64(['p', 1.5, 'u', 'i'])],
    ['an operator instead of an id', b64(['p', 1, { $gt: '' }, 'i'])],
    ['too many parts', b64(['p', 1, 'u', 'i', 'x'])],
  ])('rejects %s as a pair cursor with a message naming the argument', (_label, cursor) => {
    expect(() => decodePairCursor(cursor)).toThrow(BadUserInputError);
    expect(() => decodePairCursor(cursor)).toThrow(
      `after must be a cursor returned by this connection (an edge's cursor or pageInfo.endCursor), got ${JSON.stringify(cursor)}`,
    );
  });

  it('rejects a pair cursor where an item cursor is expected', () => {
    expect(() => decodeItemCursor(encodePairCursor({ userId: 'u', itemId: 'i', count: 1 }))).toThrow(BadUserInputError);
  });
});

describe('connection', () => {
  const rows = [1, 2, 3].map((n) => ({ itemId: `i${n}`, count: 10 - n }));
  const cursorOf = (row: { itemId: string }): string => row.itemId;

  it('uses the extra row only to say a next page exists', () => {
    expect(connection(rows, 2, cursorOf)).toEqual({
      edges: [
        { cursor: 'i1', node: rows[0] },
        { cursor: 'i2', node: rows[1] },
      ],
      pageInfo: { hasNextPage: true, endCursor: 'i2' },
    });
  });

  it('ends the last page with hasNextPage false', () => {
    expect(connection(rows, 3, cursorOf).pageInfo).toEqual({ hasNextPage: false, endCursor: 'i3' });
  });

  it('has a null endCursor when the page is empty', () => {
    expect(connection([], 5, cursorOf)).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });
});
