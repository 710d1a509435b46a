/** What tally_requests_rejected_total counts: whole-request refusals for size, rate, credentials or form only. */
import { countRejection } from '../../../src/metrics/countRejection';
import { createMetrics } from '../../../src/metrics/createMetrics';

async function counted(extensions: Record<string, unknown> | undefined): Promise<Array<Record<string, unknown>>> {
  const metrics = createMetrics();
  countRejection(metrics, extensions);
  return (await metrics.rejectedRequests.get()).values.map(({ labels, value }) => ({ ...labels, value }));
}

describe('countRejection', () => {
  it.each([
    [{ code: 'LIMIT_EXCEEDED', limit: 'GRAPHQL_MAX_DEPTH', max: 6, value: 7 }, 'LIMIT_EXCEEDED', 'GRAPHQL_MAX_DEPTH'],
    [{ code: 'RATE_LIMITED', limit: 'RATE_LIMIT_PER_KEY', max: 3 }, 'RATE_LIMITED', 'RATE_LIMIT_PER_KEY'],
    [{ code: 'UNAUTHENTICATED' }, 'UNAUTHENTICATED', ''],
    [{ code: 'FORBIDDEN' }, 'FORBIDDEN', ''],
    [{ code: 'BAD_REQUEST' }, 'BAD_REQUEST', ''],
    [{ code: 'GRAPHQL_PARSE_FAILED' }, 'GRAPHQL_PARSE_FAILED', ''],
    [{ code: 'GRAPHQL_VALIDATION_FAILED' }, 'GRAPHQL_VALIDATION_FAILED', ''],
  ])('counts %j once, labelled by code and limit', async (extensions, code, limit) => {
    expect(await counted(extensions)).toEqual([{ code, limit, value: 1 }]);
  });

  it.each([
    ['input values refused by validation', { code: 'BAD_USER_INPUT', field: 'page' }],
    ["the server's state", { code: 'SERVICE_UNAVAILABLE' }],
    ['a masked error', { code: 'INTERNAL_SERVER_ERROR' }],
    ['an unknown route', { code: 'NOT_FOUND' }],
    ['an idempotency conflict', { code: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotencyKey' }],
    ['an error without extensions', undefined],
  ])('does not count %s', async (_what, extensions) => {
    expect(await counted(extensions)).toEqual([]);
  });
});
