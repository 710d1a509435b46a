import { IMPRESSION_ITEMS_COLLECTION } from '../../src/store/impressionItems';
import { IMPRESSION_PAIRS_COLLECTION } from '../../src/store/impressionPairs';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';

jest.setTimeout(120_000);

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp('impressions', { IMPRESSIONS_MAX_BATCH: '1000', IMPRESSIONS_MAX_COUNT: '1000' });
});

afterAll(async () => {
  await app.stop();
});

const RECORD = `mutation Record($impressions: [ImpressionInput!]!) {
  recordImpressions(impressions: $impressions) { accepted total pairs items }
}`;
const PAGE = `edges { cursor node { userId itemId count } } pageInfo { hasNextPage endCursor }`;
const USER = `query User($userId: String!, $first: Int, $after: String) {
  userImpressions(userId: $userId, first: $first, after: $after) { ${PAGE} }
}`;
const ITEM = `query Item($itemId: String!, $first: Int) { itemImpressions(itemId: $itemId, first: $first) { ${PAGE} } }`;
const TOP = `query Top($first: Int) { topImpressions(first: $first) { ${PAGE} } }`;
const TOP_ITEMS = `query TopItems($first: Int, $after: String) {
  topItems(first: $first, after: $after) { edges { cursor node { itemId count } } pageInfo { hasNextPage endCursor } }
}`;

interface Page<T> {
  edges: Array<{ cursor: string; node: T }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}
type Pair = { userId: string; itemId: string; count: number };

async function documents(): Promise<number> {
  return (
    (await app.database.db.collection(IMPRESSION_PAIRS_COLLECTION).countDocuments()) +
    (await app.database.db.collection(IMPRESSION_ITEMS_COLLECTION).countDocuments())
  );
}

describe('impressions over HTTP', () => {
  it('rejects a batch with one bad impression with BAD_USER_INPUT and writes nothing', async () => {
    const { status, body } = await app.graphql(RECORD, {
      impressions: [
        { userId: 'alice', itemId: 'dish-1' },
        { userId: 'alice', itemId: 'x'.repeat(129) },
      ],
    });
    expect(status).toBe(200);
    expect(body.data).toBeNull();
    expect(body.errors).toEqual([
      {
        message: 'impressions[1].itemId must be at most 128 characters, got 129',
        locations: [{ line: 2, column: 3 }],
        path: ['recordImpressions'],
        extensions: { code: 'BAD_USER_INPUT', reason: 'ID_TOO_LONG', field: 'impressions[1].itemId' },
      },
    ]);
    expect(await documents()).toBe(0);
  });

  it('rejects a cursor it did not issue with BAD_USER_INPUT', async () => {
    const { body } = await app.graphql(USER, { userId: 'alice', after: 'not-a-cursor' });
    expect(body.errors?.[0]).toMatchObject({
      message:
        'after must be a cursor returned by this connection (an edge\'s cursor or pageInfo.endCursor), got "not-a-cursor"',
      extensions: { code: 'BAD_USER_INPUT', field: 'after' },
    });
  });

  it('records a batch of 1,000 with a fixed number of write commands and reads it back by user, item and count', async () => {
    const impressions = Array.from({ length: 1_000 }, (_, n) => ({
      userId: `user-${n % 10}`,
      itemId: `dish-${n % 20}`,
      count: 1 + (n % 3),
    }));
    const before = await app.metric('tally_mongodb_commands_total', { command: 'update' });
    const { body } = await app.graphql(RECORD, { impressions });
    const after = await app.metric('tally_mongodb_commands_total', { command: 'update' });
    expect(body).toEqual({ data: { recordImpressions: { accepted: 1000, total: 1999, pairs: 20, items: 20 } } });
    // 20 pairs and 20 items: one command per collection (FerretDB's chunks of 90 hold them too).
    expect(app.database.engine.maxUpdatesPerCommand ?? Infinity).toBeGreaterThanOrEqual(20);
    expect(after - before).toBe(2);

    const user = await app.graphql<{ userImpressions: Page<Pair> }>(USER, { userId: 'user-0', first: 1 });
    const first = user.body.data?.userImpressions;
    expect(first?.edges.map((e) => e.node)).toEqual([{ userId: 'user-0', itemId: 'dish-0', count: 100 }]);
    expect(first?.pageInfo.hasNextPage).toBe(true);
    const rest = await app.graphql<{ userImpressions: Page<Pair> }>(USER, {
      userId: 'user-0',
      first: 5,
      after: first?.pageInfo.endCursor,
    });
    expect(rest.body.data?.userImpressions).toMatchObject({
      edges: [{ node: { userId: 'user-0', itemId: 'dish-10', count: 99 } }],
      pageInfo: { hasNextPage: false },
    });

    const item = await app.graphql<{ itemImpressions: Page<Pair> }>(ITEM, { itemId: 'dish-1', first: 5 });
    expect(item.body.data?.itemImpressions.edges.map((e) => e.node)).toEqual([
      { userId: 'user-1', itemId: 'dish-1', count: 99 },
    ]);

    const top = await app.graphql<{ topImpressions: Page<Pair> }>(TOP, { first: 2 });
    expect(top.body.data?.topImpressions.edges.map((e) => e.node.count)).toEqual([101, 101]);

    const items = await app.graphql<{ topItems: Page<{ itemId: string; count: number }> }>(TOP_ITEMS, { first: 3 });
    expect(items.body.data?.topItems.edges.map((e) => e.node)).toEqual([
      { itemId: 'dish-11', count: 101 },
      { itemId: 'dish-14', count: 101 },
      { itemId: 'dish-17', count: 101 },
    ]);
  });

  it('rejects first outside 1 to IMPRESSIONS_MAX_PAGE', async () => {
    const { body } = await app.graphql(TOP, { first: 0 });
    expect(body.errors?.[0]).toMatchObject({
      message: 'first must be an integer from 1 to 100, got 0',
      extensions: { code: 'BAD_USER_INPUT', field: 'first' },
    });
  });
});
