/**
 * CPU cost of the request limits per request, side by side: graphql-js validation with and without the
 * armor depth/alias rules, the token-limited parse, and checkOperation (policies, root fields, summed
 * buckets), on the benchmark's 20-series dashboard query. Prints microseconds per request; no thresholds.
 *   npm run build && node dist/bench/limitsCost.js
 */
import { getOperationAST, parse, specifiedRules, validate } from 'graphql';
import { OPEN } from '../src/auth/Principal';
import { buildSchema } from '../src/graphql/buildSchema';
import { checkOperation } from '../src/graphql/guard/checkOperation';
import { createValidationRules } from '../src/graphql/guard/createValidationRules';
import type { RequestLimits } from '../src/graphql/guard/RequestLimits';

const LIMITS: RequestLimits = {
  maxDepth: 6,
  maxAliases: 30,
  maxTokens: 2000,
  maxRootFields: 30,
  maxBucketsPerRequest: 100_000,
  maxHitsPerRequest: 10_000,
  maxImpressionsPerRequest: 10_000,
};
const schema = buildSchema();
const query = `query Chart($from: DateTime!, $to: DateTime!) {\n${Array.from(
  { length: 20 },
  (_, i) =>
    `  s${i}: pageStats(site: "bench.example", page: "/page/${i}", range: {from: $from, to: $to}, granularity: HOUR) { total values }`,
).join('\n')}\n}`;
const variables = { from: '2026-11-14T00:00:00Z', to: '2026-11-21T00:00:00Z' };
const armor = [...specifiedRules, ...createValidationRules(LIMITS, { introspection: true })];

function time(label: string, iterations: number, fn: () => void): number {
  for (let i = 0; i < 200; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  const us = Number(process.hrtime.bigint() - start) / 1000 / iterations;
  process.stdout.write(`${label.padEnd(48)} ${us.toFixed(1).padStart(8)} µs/request\n`);
  return us;
}

const N = 3000;
const document = parse(query);
const operation = getOperationAST(document)!;
const parsePlain = time('parse', N, () => parse(query));
const parseLimited = time('parse with maxTokens', N, () => parse(query, { maxTokens: LIMITS.maxTokens }));
const validatePlain = time('validate (graphql-js rules)', N, () => validate(schema, document));
const validateArmor = time('validate (+ armor depth and aliases)', N, () => validate(schema, document, armor));
const guard = time('checkOperation (auth, root fields, summed buckets)', N, () =>
  checkOperation({ schema, document, operation, variables, principal: OPEN, transport: 'http' }, LIMITS),
);
process.stdout.write(
  `\nadded by the limits: ${(parseLimited - parsePlain + validateArmor - validatePlain + guard).toFixed(1)} µs/request ` +
    `(tokens ${(parseLimited - parsePlain).toFixed(1)}, armor ${(validateArmor - validatePlain).toFixed(1)}, checkOperation ${guard.toFixed(1)})\n`,
);
