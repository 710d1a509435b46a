/**
 * The steps before execution that graphql-ws runs (and Apollo runs the same of: parse, validate, guard), without
 * sockets: what passes, and each refusal typed as clients see it over HTTP.
 */
import { getIntrospectionQuery, GraphQLError } from 'graphql';
import { OPEN } from '../../../src/auth/Principal';
import type { Principal } from '../../../src/auth/Principal';
import { normalizeError } from '../../../src/errors/normalizeError';
import { buildSchema } from '../../../src/graphql/buildSchema';
import { createValidationRules } from '../../../src/graphql/guard/createValidationRules';
import type { RequestLimits } from '../../../src/graphql/guard/RequestLimits';
import { createOperationPreparer } from '../../../src/graphql/prepareOperation';
import type { OperationRequest } from '../../../src/graphql/prepareOperation';

const LIMITS: RequestLimits = {
  maxDepth: 6,
  maxAliases: 30,
  maxTokens: 15_000,
  maxRootFields: 30,
  maxBucketsPerRequest: 100_000,
  maxHitsPerRequest: 10_000,
  maxImpressionsPerRequest: 10_000,
};
const prepare = createOperationPreparer({
  schema: buildSchema(),
  validationRules: createValidationRules(LIMITS, { introspection: true }),
  limits: LIMITS,
});
const READER: Principal = { kind: 'key', name: 'dashboard', scopes: new Set(['read']), sites: undefined };
const LIVE = 'subscription { pageStatsLive(site: "s", page: "/", granularity: MINUTE) { total } }';

function run(query: string, request: Partial<OperationRequest> = {}) {
  return prepare({ query, principal: OPEN, transport: 'websocket', ...request });
}

/** The first refusal as a client reads it (normalizeError is what formatError builds the extensions from). */
function refusal(query: string, request: Partial<OperationRequest> = {}) {
  const prepared = run(query, request);
  if (prepared.ok) throw new Error(`expected a refusal of ${query}`);
  expect(prepared.errors.every((error) => error instanceof GraphQLError)).toBe(true);
  const first = prepared.errors[0]!;
  return { message: first.message, extensions: normalizeError(first).extensions };
}

const typeRef = (depth: number): string => (depth === 0 ? 'name' : `kind name ofType { ${typeRef(depth - 1)} }`);
const nested = (depth: number): string => (depth === 0 ? 'a' : `a { ${nested(depth - 1)} }`);

describe('prepareOperation', () => {
  it('returns the document and the operation named by operationName', () => {
    const prepared = run('query A { serverInfo { version } } query B { __typename }', { operationName: 'B' });
    expect(prepared.ok && prepared.operation.name?.value).toBe('B');
    expect(prepared.ok && prepared.document.definitions).toHaveLength(2);
  });

  it('refuses a document that does not parse with GRAPHQL_PARSE_FAILED', () => {
    expect(refusal('{ serverInfo { version }')).toEqual({
      message: 'Syntax Error: Expected Name, found <EOF>.',
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    });
  });

  it('refuses a document over GRAPHQL_MAX_TOKENS as LIMIT_EXCEEDED', () => {
    const fields = `{ ${Array.from({ length: LIMITS.maxTokens }, () => '__typename').join(' ')} }`;
    expect(refusal(fields)).toEqual({
      message: 'the number of tokens in the document exceeds the limit of 15000 (GRAPHQL_MAX_TOKENS)',
      extensions: { code: 'LIMIT_EXCEEDED', limit: 'GRAPHQL_MAX_TOKENS', max: 15000 },
    });
  });

  it('refuses an invalid document with GRAPHQL_VALIDATION_FAILED', () => {
    expect(refusal('{ nope }')).toEqual({
      message: 'Cannot query field "nope" on type "Query".',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it('refuses an operation deeper than GRAPHQL_MAX_DEPTH with LIMIT_EXCEEDED before any other error', () => {
    expect(refusal(`{ ${nested(29)} }`)).toEqual({
      message: 'the depth of the operation is 30, more than the limit of 6 (GRAPHQL_MAX_DEPTH)',
      extensions: { code: 'LIMIT_EXCEEDED', limit: 'GRAPHQL_MAX_DEPTH', max: 6, value: 30 },
    });
  });

  it('leaves introspection to MaxIntrospectionDepthRule: a __type with ofType three deep passes', () => {
    // Depth 7 by the operation's measure: __type, fields, type, then ofType three times, then name.
    const query = `{ __type(name: "Mutation") { name fields { name type { ${typeRef(3)} } } } }`;
    expect(run(query).ok).toBe(true);
    expect(run(getIntrospectionQuery()).ok).toBe(true);
    expect(run(getIntrospectionQuery({ inputValueDeprecation: true, schemaDescription: true })).ok).toBe(true);
  });

  it('refuses introspection nested deeper than MaxIntrospectionDepthRule allows', () => {
    expect(refusal('{ __schema { types { fields { type { fields { type { fields { name } } } } } } } }')).toEqual({
      message: 'Maximum introspection depth exceeded',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it('still measures the data fields beside an introspection field', () => {
    expect(refusal(`{ __type(name: "Query") { name } ${nested(6)} }`).extensions).toMatchObject({
      limit: 'GRAPHQL_MAX_DEPTH',
      value: 7,
    });
  });

  it.each([
    ['two operations and no operationName', 'query A { __typename } query B { __typename }', undefined],
    ['an operationName the document lacks', 'query A { __typename }', 'C'],
  ])('refuses %s as BAD_REQUEST', (_what, query, operationName) => {
    expect(refusal(query, { operationName })).toEqual({
      message: 'the document must hold exactly one operation, or name one in operationName',
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  it('serves subscriptions over WebSocket only', () => {
    expect(run(LIVE).ok).toBe(true);
    expect(refusal(LIVE, { transport: 'http' })).toEqual({
      message: 'subscriptions are served over WebSocket (graphql-ws protocol, path /graphql), not over HTTP',
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  it('guards scopes: UNAUTHENTICATED without a key, FORBIDDEN without the scope', () => {
    expect(refusal(LIVE, { principal: { kind: 'anonymous' } })).toEqual({
      message: 'this operation needs an API key with scope "read": send "Authorization: Bearer <secret>"',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    expect(run(LIVE, { principal: READER }).ok).toBe(true);
    expect(refusal('mutation { recordHit(site: "s", page: "/") { count } }', { principal: READER })).toEqual({
      message: 'this operation needs scope "ingest", which the API key lacks',
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('guards summed costs with the variables given', () => {
    const hits = Array.from({ length: 6_000 }, () => ({ site: 's', page: '/' }));
    expect(
      refusal('mutation($h: [HitInput!]!) { a: recordHits(hits: $h) { total } b: recordHits(hits: $h) { total } }', {
        variables: { h: hits },
      }),
    ).toEqual({
      message:
        'the number of hits over all fields of the request is 12000, more than the limit of 10000 (INGEST_MAX_BATCH)',
      extensions: { code: 'LIMIT_EXCEEDED', limit: 'INGEST_MAX_BATCH', max: 10000, value: 12000 },
    });
  });
});
