/**
 * checkOperation with variables: ingest mutations are checked on the variables as sent (rawArgsSuffice), which must
 * decide exactly as the coerced variables would; anything else is coerced first, as before.
 */
import { getOperationAST, parse, specifiedRules, validate } from 'graphql';
import type { Principal } from '../../../../src/auth/Principal';
import { AppError } from '../../../../src/errors/AppError';
import { buildSchema } from '../../../../src/graphql/buildSchema';
import { checkOperation } from '../../../../src/graphql/guard/checkOperation';
import { createValidationRules } from '../../../../src/graphql/guard/createValidationRules';
import { requestLimitsOf } from '../../../../src/app/requestLimitsOf';
import type { RequestLimits } from '../../../../src/graphql/guard/RequestLimits';
import { loadConfig } from '../../../../src/config/loadConfig';

const schema = buildSchema();
// A server's defaults, with a batch limit small enough to sum over.
const LIMITS: RequestLimits = { ...requestLimitsOf(loadConfig({})), maxHitsPerRequest: 3 };
const rules = [...specifiedRules, ...createValidationRules(LIMITS, { introspection: true })];
const INGEST_A: Principal = { kind: 'key', name: 'a', scopes: new Set(['ingest']), sites: new Set(['a.example']) };

function check(principal: Principal, query: string, variables: Record<string, unknown>): string | undefined {
  const document = parse(query);
  const errors = validate(schema, document, rules);
  if (errors.length > 0) throw new Error(errors.map((e) => e.message).join('; '));
  try {
    checkOperation(
      { schema, document, operation: getOperationAST(document)!, variables, principal, transport: 'http' },
      LIMITS,
    );
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

const RECORD_HITS = 'mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { total } }';
const TWO_BATCHES =
  'mutation($a: [HitInput!]!, $b: [HitInput!]!) { x: recordHits(hits: $a) { total } y: recordHits(hits: $b) { total } }';
const RECORD_HIT = 'mutation($site: String!) { recordHit(site: $site, page: "/") { count } }';
const hit = (site: string) => ({ site, page: '/' });

describe('checkOperation on variables', () => {
  it.each([
    ['a batch of the allowed site', RECORD_HITS, { hits: [hit('a.example'), hit('a.example')] }, undefined],
    ['a batch naming another site', RECORD_HITS, { hits: [hit('a.example'), hit('b.example')] }, 'FORBIDDEN'],
    ['a single hit of another site', RECORD_HIT, { site: 'b.example' }, 'FORBIDDEN'],
    ['a single hit of the allowed site', RECORD_HIT, { site: 'a.example' }, undefined],
    [
      'two batches over the summed limit',
      TWO_BATCHES,
      { a: [hit('a.example')], b: [1, 2, 3].map(() => hit('a.example')) },
      'LIMIT_EXCEEDED',
    ],
    [
      'two batches at the summed limit',
      TWO_BATCHES,
      { a: [hit('a.example')], b: [hit('a.example'), hit('a.example')] },
      undefined,
    ],
  ])('decides %s as on coerced variables', (_name, query, variables, code) => {
    expect(check(INGEST_A, query, variables)).toBe(code);
  });

  it('checks the sites of a batch as sent, so a forbidden site is refused even when another field does not coerce', () => {
    const hits = [{ ...hit('b.example'), at: 'not a date' }];
    expect(check(INGEST_A, RECORD_HITS, { hits })).toBe('FORBIDDEN');
  });

  it.each([
    // A number is no String and null no HitInput: the coercion error is execution's to report, as before.
    ['a site that is not a string', { hits: [{ site: 7, page: '/' }] }, undefined],
    ['a hit that is not an object', { hits: [null] }, undefined],
    ['no batch', {}, undefined],
    // Coerced, a single object is a list of one, whose site is then checked.
    ['a batch sent as one object', { hits: hit('b.example') }, 'FORBIDDEN'],
  ])('coerces first, as before, for %s', (_name, variables, code) => {
    expect(check(INGEST_A, RECORD_HITS, variables)).toBe(code);
  });

  it('counts a batch sent as one object as one hit, as coercion does', () => {
    const query =
      'mutation($a: [HitInput!]!, $b: [HitInput!]!) { x: recordHits(hits: $a) { total } y: recordHits(hits: $b) { total } }';
    const three = [hit('a.example'), hit('a.example'), hit('a.example')];
    expect(check(INGEST_A, query, { a: hit('a.example'), b: three })).toBe('LIMIT_EXCEEDED');
  });

  it('coerces when a directive decides which fields run', () => {
    const query =
      'mutation($hits: [HitInput!]!, $skip: Boolean!) { recordHits(hits: $hits) @skip(if: $skip) { total } }';
    expect(check(INGEST_A, query, { hits: [hit('b.example')], skip: true })).toBeUndefined();
    expect(check(INGEST_A, query, { hits: [hit('b.example')], skip: false })).toBe('FORBIDDEN');
  });
});
