/** Idempotency keys over HTTP (issue 9): the argument, the Idempotency-Key header, and their typed errors. */
import { startTestApp } from '../support/startTestApp';
import type { GraphQLErrorBody, TestApp } from '../support/startTestApp';

const NOW = Date.parse('2026-03-10T12:30:00Z');
let app: TestApp;

beforeAll(async () => {
  app = await startTestApp('idempotency', { IDEMPOTENCY_WAIT_MS: '0' }, () => NOW);
});

afterAll(async () => {
  await app.stop();
});

async function post(
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{ data?: Record<string, unknown> | null; errors?: GraphQLErrorBody[] }> {
  const response = await fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as never;
}

const RECORD_HIT = `mutation($site: String!, $key: String) {
  recordHit(site: $site, page: "/", idempotencyKey: $key) { at count }
}`;
const RECORD_HITS = `mutation($hits: [HitInput!]!, $key: String) {
  recordHits(hits: $hits, idempotencyKey: $key) { accepted total }
}`;
const DAY_TOTAL = `query($site: String!) {
  pageStats(site: $site, page: "/", range: { from: "2026-03-10T00:00:00Z", to: "2026-03-11T00:00:00Z" }, granularity: DAY) { total }
}`;

async function dayTotal(site: string): Promise<unknown> {
  return (await post(DAY_TOTAL, { site })).data?.pageStats;
}

describe('idempotency keys over HTTP', () => {
  it('counts a retried recordHit once and answers the retry with the original result', async () => {
    const first = await post(RECORD_HIT, { site: 'arg.example', key: 'hit-1' });
    const retry = await post(RECORD_HIT, { site: 'arg.example', key: 'hit-1' });
    expect(first).toEqual({ data: { recordHit: { at: '2026-03-10T12:30:00.000Z', count: 1 } } });
    expect(retry).toEqual(first);
    expect(await dayTotal('arg.example')).toEqual({ total: 1 });
  });

  it('takes the key from the Idempotency-Key header', async () => {
    const hits = [{ site: 'header.example', page: '/', count: 3 }];
    for (let i = 0; i < 3; i++) {
      expect(await post(RECORD_HITS, { hits }, { 'Idempotency-Key': 'batch-7' })).toEqual({
        data: { recordHits: { accepted: 1, total: 3 } },
      });
    }
    expect(await dayTotal('header.example')).toEqual({ total: 3 });
  });

  it('rejects a key reused for another payload with IDEMPOTENCY_KEY_REUSED', async () => {
    await post(RECORD_HITS, { hits: [{ site: 'reused.example', page: '/' }], key: 'r-1' });
    const { errors } = await post(RECORD_HITS, { hits: [{ site: 'reused.example', page: '/', count: 2 }], key: 'r-1' });
    expect(errors?.[0]?.extensions?.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(errors?.[0]?.message).toMatch(/^idempotencyKey was already used for a different request/);
    expect(await dayTotal('reused.example')).toEqual({ total: 1 });
  });

  it('rejects an argument that differs from the header', async () => {
    const { errors } = await post(RECORD_HIT, { site: 'both.example', key: 'a' }, { 'Idempotency-Key': 'b' });
    expect(errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'idempotencyKey' });
    expect(errors?.[0]?.message).toBe(
      'idempotencyKey must equal the Idempotency-Key header when both are given, got "a" and header "b"',
    );
    expect(await dayTotal('both.example')).toEqual({ total: 0 });
  });

  it('rejects the header on a request with two counting mutations', async () => {
    const { errors } = await post(
      'mutation { a: recordHit(site: "two.example", page: "/") { count } b: recordHit(site: "two.example", page: "/") { count } }',
      {},
      { 'Idempotency-Key': 'k' },
    );
    expect(errors?.[0]?.message).toBe(
      'the Idempotency-Key header applies to a request with one recordHit, recordHits or recordHitColumns field, got 2; pass an idempotencyKey argument to each instead',
    );
    expect(errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('rejects a malformed key with BAD_USER_INPUT naming the field', async () => {
    const { errors } = await post(RECORD_HIT, { site: 'bad.example', key: 'x'.repeat(256) });
    expect(errors?.[0]?.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'idempotencyKey' });
    expect(errors?.[0]?.message).toMatch(
      /^idempotencyKey must be 1–255 characters without control characters, got "x+…" \(256 characters\)$/,
    );
  });

  it('behaves as before without a key: every request counts', async () => {
    await post(RECORD_HIT, { site: 'plain.example' });
    await post(RECORD_HIT, { site: 'plain.example' });
    expect(await dayTotal('plain.example')).toEqual({ total: 2 });
  });
});
