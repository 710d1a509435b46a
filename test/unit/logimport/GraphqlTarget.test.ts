/**
 * How the GraphQL target reads a server's answers: a canned HTTP server stands in for tally (the real one is
 * covered by the e2e and process tests) so every class of answer maps to retry, refuse-the-batch or stop.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GraphqlTarget } from '../../../src/logimport/GraphqlTarget';
import type { HitBatch } from '../../../src/logimport/HitBatch';
import { ImportTargetError } from '../../../src/logimport/ImportTarget';

let server: http.Server;
let url: string;
let answer: { status: number; body: unknown } = { status: 200, body: {} };
let received: { headers: http.IncomingHttpHeaders; body: { variables: { idempotencyKey: string; columns: unknown } } };

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received = { headers: request.headers, body: JSON.parse(body) as typeof received.body };
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://user:secret@127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const batch: HitBatch = {
  idempotencyKey: 'tally-import:v1:abc:1-100',
  file: 'access.log',
  firstLine: 1,
  lastLine: 100,
  hits: [{ site: 'example.com', page: '/a', at: Date.UTC(2026, 0, 1), count: 3 }],
  total: 3,
};

const withInputs: HitBatch = {
  ...batch,
  hits: [
    { site: 'example.com', page: '/a', at: 1_000, count: 1, visitor: 'v1', userAgent: 'UA', clientIp: '198.51.100.7' },
    {
      site: 'example.com',
      page: '/b',
      at: 2_000,
      count: 2,
      visitor: 'v2',
      userAgent: 'UA',
      referrer: 'https://x.example/',
    },
    {
      site: 'example.com',
      page: '/a',
      at: 3_000,
      count: 1,
      visitor: 'v1',
      utm: { utmSource: 'news', utmMedium: '(none)', utmCampaign: 'spring' },
    },
  ],
  total: 4,
};

const error = (code: string, message = 'm', extra: Record<string, string> = {}) => ({
  data: null,
  errors: [{ message, extensions: { code, ...extra } }],
});

describe('GraphqlTarget', () => {
  it('sends the batch with its idempotency key and the API key as a bearer token', async () => {
    answer = { status: 200, body: { data: { recordHitColumns: { accepted: 1, total: 3 } } } };
    await expect(new GraphqlTarget(url, 'sk_test').send(batch)).resolves.toBe(3);
    expect(received.headers.authorization).toBe('Bearer sk_test');
    expect(received.body.variables).toEqual({
      idempotencyKey: 'tally-import:v1:abc:1-100',
      columns: { sites: ['example.com'], pages: ['/a'], pageIndex: [0], atMs: [Date.UTC(2026, 0, 1)], count: [3] },
    });
  });

  it('sends visitors, referrers, User-Agents, addresses and UTM values once each, with per-hit indexes', async () => {
    answer = { status: 200, body: { data: { recordHitColumns: { accepted: 3, total: 4 } } } };
    await expect(new GraphqlTarget(url, undefined).send(withInputs)).resolves.toBe(4);
    expect(received.body.variables.columns).toEqual({
      sites: ['example.com'],
      pages: ['/a', '/b'],
      pageIndex: [0, 1, 0],
      atMs: [1_000, 2_000, 3_000],
      count: [1, 2, 1],
      visitors: ['v1', 'v2'],
      visitorIndex: [0, 1, 0],
      referrers: ['https://x.example/'],
      referrerIndex: [-1, 0, -1],
      userAgents: ['UA'],
      userAgentIndex: [0, 0, -1],
      clientIps: ['198.51.100.7'],
      clientIpIndex: [0, -1, -1],
      dimensions: [{ utmSource: 'news', utmMedium: '(none)', utmCampaign: 'spring' }],
      dimensionIndex: [-1, -1, 0],
    });
  });

  it.each([
    [503, error('SERVICE_UNAVAILABLE'), 'retry'],
    [200, error('IDEMPOTENCY_KEY_IN_PROGRESS'), 'retry'],
    [502, '<html>bad gateway</html>', 'retry'],
    [429, {}, 'retry'],
    [200, error('IDEMPOTENCY_KEY_REUSED'), 'batch'],
    [200, error('BAD_USER_INPUT', 'hits[0].at must be no later than …'), 'batch'],
    [
      200,
      error('LIMIT_EXCEEDED', 'the number of hits in hits is 5000, more than the limit of 100 (INGEST_MAX_BATCH)', {
        reason: 'BATCH_TOO_LARGE',
      }),
      'abort',
    ],
    [401, error('UNAUTHENTICATED'), 'abort'],
    [403, error('FORBIDDEN', 'this key may not ingest for example.com'), 'abort'],
    [404, '<html>not found</html>', 'abort'],
    [
      400,
      error('GRAPHQL_VALIDATION_FAILED', 'Unknown argument "idempotencyKey" on field "Mutation.recordHitColumns".'),
      'abort',
    ],
  ])('answers %d %j → %s', async (status, body, kind) => {
    answer = { status, body };
    const failure = await new GraphqlTarget(url, undefined).send(batch).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ImportTargetError);
    expect((failure as ImportTargetError).kind).toBe(kind);
    expect((failure as ImportTargetError).message).not.toContain('secret');
  });

  it('says plainly when the server predates idempotency keys', async () => {
    answer = {
      status: 400,
      body: error(
        'GRAPHQL_VALIDATION_FAILED',
        'Unknown argument "idempotencyKey" on field "Mutation.recordHitColumns".',
      ),
    };
    await expect(new GraphqlTarget(url, undefined).send(batch)).rejects.toThrow(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql does not accept idempotency keys (recordHitColumns(idempotencyKey:)), so an import could not be resumed exactly; upgrade that tally server`,
    );
  });

  it('retries when nothing listens', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const failure = await new GraphqlTarget(`http://127.0.0.1:${port}/graphql`, undefined)
      .send(batch)
      .catch((e: unknown) => e);
    expect(failure).toEqual(
      new ImportTargetError('retry', `cannot reach http://127.0.0.1:${port}/graphql: ECONNREFUSED`),
    );
  });
});
