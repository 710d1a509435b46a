/**
 * Every per-operation limit at its boundary: the limit passes, limit + 1 fails with LIMIT_EXCEEDED naming the
 * limit's variable and the value. Validation rules (depth, aliases) and the token limit run as the servers
 * run them; checkOperation (root fields, summed buckets/hits/impressions) against the real schema.
 */
import { getOperationAST, GraphQLError, MaxIntrospectionDepthRule, parse, specifiedRules, validate } from 'graphql';
import { OPEN } from '../../../../src/auth/Principal';
import { AppError } from '../../../../src/errors/AppError';
import { LimitExceededError } from '../../../../src/errors/LimitExceededError';
import { buildSchema } from '../../../../src/graphql/buildSchema';
import { checkOperation } from '../../../../src/graphql/guard/checkOperation';
import { createValidationRules } from '../../../../src/graphql/guard/createValidationRules';
import type { RequestLimits } from '../../../../src/graphql/guard/RequestLimits';

const schema = buildSchema();
const LIMITS: RequestLimits = {
  maxDepth: 3,
  maxAliases: 4,
  maxTokens: 40,
  maxRootFields: 5,
  maxBucketsPerRequest: 48,
  maxHitsPerRequest: 5,
  maxImpressionsPerRequest: 3,
};
const rules = [...specifiedRules, ...createValidationRules(LIMITS, { introspection: true })];

function limitErrors(query: string): Array<{ limit?: string; max?: number; value?: number | undefined }> {
  const errors = validate(schema, parse(query), rules);
  return errors.map((error) => {
    const original = error.originalError;
    if (original instanceof LimitExceededError)
      return { limit: original.limit, max: original.max, value: original.value };
    return { limit: `not a limit: ${error.message}` };
  });
}

function check(query: string, variables?: Record<string, unknown>): AppError | undefined {
  const document = parse(query);
  const errors = validate(schema, document, rules);
  if (errors.length > 0) throw new Error(errors.map((e) => e.message).join('; '));
  try {
    checkOperation(
      { schema, document, operation: getOperationAST(document)!, variables, principal: OPEN, transport: 'http' },
      LIMITS,
    );
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

const aliases = (n: number): string =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: serverInfo { version }`).join(' ')} }`;
const series = (hours: number[]): string =>
  `{ ${hours
    .map(
      (h, i) =>
        `s${i}: pageStats(site: "s", page: "/", range: { from: "2026-11-21T00:00:00Z", to: "2026-11-21T${String(h).padStart(2, '0')}:00:00Z" }, granularity: HOUR) { total }`,
    )
    .join(' ')} }`;

describe('per-operation limits', () => {
  it('accepts depth 3 and refuses depth 4 naming GRAPHQL_MAX_DEPTH', () => {
    expect(limitErrors('{ serverInfo { database { engine } } }')).toEqual([]);
    expect(
      limitErrors(
        '{ pageStats(site: "s", page: "/", range: { from: "2026-11-21T00:00:00Z", to: "2026-11-21T01:00:00Z" }, granularity: HOUR) { points { t } } }',
      ),
    ).toEqual([]);
    expect(limitErrors('{ userImpressions(userId: "u") { edges { node { itemId } } } }')).toEqual([
      { limit: 'GRAPHQL_MAX_DEPTH', max: 3, value: 4 },
    ]);
  });

  it('counts depth through fragments', () => {
    expect(
      limitErrors(
        '{ userImpressions(userId: "u") { ...E } } fragment E on ImpressionConnection { edges { node { itemId } } }',
      ),
    ).toEqual([{ limit: 'GRAPHQL_MAX_DEPTH', max: 3, value: 4 }]);
  });

  it('leaves the introspection root fields out of the depth, and still measures the fields beside them', () => {
    const ofTypes = '{ __type(name: "Query") { fields { type { ofType { ofType { ofType { name } } } } } } }';
    expect(limitErrors(ofTypes)).toEqual([]);
    expect(limitErrors('{ __schema { types { fields { type { ofType { name } } } } } }')).toEqual([]);
    expect(
      limitErrors('{ __type(name: "Query") { name } userImpressions(userId: "u") { edges { node { itemId } } } }'),
    ).toEqual([{ limit: 'GRAPHQL_MAX_DEPTH', max: 3, value: 4 }]);
  });

  it('counts an introspection field reached through a fragment (stricter, never looser)', () => {
    expect(limitErrors('{ ...T } fragment T on Query { __type(name: "Query") { fields { type { name } } } }')).toEqual([
      { limit: 'GRAPHQL_MAX_DEPTH', max: 3, value: 4 },
    ]);
  });

  it("bounds introspection with graphql-js's MaxIntrospectionDepthRule, which both transports run", () => {
    // Apollo validates with specifiedRules plus ours, and so does prepareOperation for graphql-ws.
    expect(specifiedRules).toContain(MaxIntrospectionDepthRule);
  });

  it('accepts 4 aliases and refuses 5 naming GRAPHQL_MAX_ALIASES', () => {
    expect(limitErrors(aliases(4))).toEqual([]);
    expect(limitErrors(aliases(5))).toEqual([{ limit: 'GRAPHQL_MAX_ALIASES', max: 4, value: 5 }]);
  });

  it('accepts 40 tokens and refuses 41 (graphql-js stops parsing at the limit)', () => {
    // "{", 38 × "__typename", "}": 40 tokens.
    const fields = (n: number): string => `{ ${Array.from({ length: n }, () => '__typename').join(' ')} }`;
    expect(() => parse(fields(38), { maxTokens: 40 })).not.toThrow();
    // graphql-js 16 spells it "more that"; formatError recognises both spellings.
    expect(() => parse(fields(39), { maxTokens: 40 })).toThrow(
      /^Syntax Error: Document contains more tha[nt] 40 tokens/,
    );
  });

  it('accepts 5 root fields and refuses 6 naming GRAPHQL_MAX_ROOT_FIELDS', () => {
    expect(
      check(
        `{ serverInfo { version } ${Array.from({ length: 4 }, (_, i) => `r${i}: serverInfo { version }`).join(' ')} }`,
      ),
    ).toBeUndefined();
    const refused = check(
      `{ serverInfo { version } r0: __typename ${Array.from({ length: 4 }, (_, i) => `r${i + 1}: serverInfo { version }`).join(' ')} }`,
    );
    expect(refused).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'GRAPHQL_MAX_ROOT_FIELDS', max: 5, value: 6 });
    expect(refused?.message).toBe('root fields is 6, more than the limit of 5 (GRAPHQL_MAX_ROOT_FIELDS)');
  });

  it('sums buckets over every series: 48 pass, 49 fail naming QUERY_MAX_BUCKETS_PER_REQUEST', () => {
    expect(check(series([24, 24]).replace(/T24:00:00Z/g, 'T23:59:59Z'))).toBeUndefined();
    const refused = check(
      `query($to: DateTime!) { a: pageStats(site: "s", page: "/", range: { from: "2026-11-21T00:00:00Z", to: $to }, granularity: HOUR) { total } b: pageStats(site: "s", page: "/", range: { from: "2026-11-22T00:00:00Z", to: "2026-11-23T01:00:00Z" }, granularity: HOUR) { total } }`,
      { to: '2026-11-22T00:00:00Z' },
    );
    expect(refused).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      limit: 'QUERY_MAX_BUCKETS_PER_REQUEST',
      max: 48,
      value: 49,
    });
  });

  it('sums hits over every mutation field: 5 pass, 6 fail naming INGEST_MAX_BATCH', () => {
    const hits = (n: number): string => `[${Array.from({ length: n }, () => '{ site: "s", page: "/" }').join(', ')}]`;
    expect(
      check(`mutation { a: recordHits(hits: ${hits(3)}) { total } b: recordHits(hits: ${hits(2)}) { total } }`),
    ).toBeUndefined();
    expect(
      check(
        `mutation { a: recordHits(hits: ${hits(3)}) { total } b: recordHits(hits: ${hits(2)}) { total } recordHit(site: "s", page: "/") { count } }`,
      ),
    ).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'INGEST_MAX_BATCH', max: 5, value: 6 });
  });

  it('leaves a single field over a limit to its resolver, which names its own rule', () => {
    const hits = Array.from({ length: 6 }, () => ({ site: 's', page: '/' }));
    expect(check('mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { total } }', { hits })).toBeUndefined();
  });

  it('sums impressions over every field: 3 pass, 4 fail naming IMPRESSIONS_MAX_BATCH', () => {
    const list = (n: number): string =>
      `[${Array.from({ length: n }, () => '{ userId: "u", itemId: "i" }').join(', ')}]`;
    expect(
      check(
        `mutation { a: recordImpressions(impressions: ${list(2)}) { total } b: recordImpressions(impressions: ${list(1)}) { total } }`,
      ),
    ).toBeUndefined();
    expect(
      check(
        `mutation { a: recordImpressions(impressions: ${list(2)}) { total } b: recordImpressions(impressions: ${list(2)}) { total } }`,
      ),
    ).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'IMPRESSIONS_MAX_BATCH', max: 3, value: 4 });
  });

  it('refuses a subscription sent over HTTP as BAD_REQUEST', () => {
    expect(check('subscription { pageStatsLive(site: "s", page: "/", granularity: MINUTE) { total } }')).toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('reports limit errors as GraphQLErrors carrying the typed error', () => {
    const [error] = validate(schema, parse(aliases(5)), rules);
    expect(error).toBeInstanceOf(GraphQLError);
    expect(error?.message).toBe(
      'the number of aliases in the operation is 5, more than the limit of 4 (GRAPHQL_MAX_ALIASES)',
    );
  });
});
