/**
 * CPU cost of the request limits per request, side by side: graphql-js validation with and without the
 * armor depth/alias rules, the token-limited parse, and checkOperation (policies, root fields, summed
 * buckets), on the benchmark's 20-series dashboard query. Prints CPU microseconds per request; no thresholds.
 * Apollo caches parsed and validated documents, so parse and validation costs are paid once per distinct
 * document; checkOperation runs on every request.
 *   npm run build && node dist/bench/probes/limitsCost.js
 */
import { getOperationAST, parse, specifiedRules, validate } from 'graphql';
import { OPEN } from '../../src/auth/Principal';
import { buildSchema } from '../../src/graphql/buildSchema';
import { checkOperation } from '../../src/graphql/guard/checkOperation';
import { createValidationRules } from '../../src/graphql/guard/createValidationRules';
import type { RequestLimits } from '../../src/graphql/guard/RequestLimits';
import { parseOptions } from '../shared/options';

parseOptions(process.argv.slice(2), {});

const LIMITS: RequestLimits = {
  maxDepth: 6,
  maxAliases: 30,
  maxTokens: 15_000,
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

/**
 * CPU time (user + system, not wall clock: the machine may be shared), median of ROUNDS rounds run
 * interleaved with the other variants so load changes hit them all alike.
 */
const ROUNDS = 7;
const N = 400;
const variants: Array<{ label: string; fn: () => void; samples: number[] }> = [];

function variant(label: string, fn: () => void): () => number {
  const entry = { label, fn, samples: [] as number[] };
  variants.push(entry);
  return () => {
    const sorted = [...entry.samples].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  };
}

function run(): void {
  for (const entry of variants) for (let i = 0; i < 100; i++) entry.fn();
  for (let round = 0; round < ROUNDS; round++) {
    for (const entry of variants) {
      const start = process.cpuUsage();
      for (let i = 0; i < N; i++) entry.fn();
      const used = process.cpuUsage(start);
      entry.samples.push((used.user + used.system) / N);
    }
  }
}

const document = parse(query);
const operation = getOperationAST(document)!;
const parsePlainM = variant('parse', () => parse(query));
const parseLimitedM = variant('parse with maxTokens', () => parse(query, { maxTokens: LIMITS.maxTokens }));
const validatePlainM = variant('validate (graphql-js rules)', () => validate(schema, document));
const validateArmorM = variant('validate (+ armor depth and aliases)', () => validate(schema, document, armor));
const guardM = variant('checkOperation (auth, root fields, summed buckets)', () =>
  checkOperation({ schema, document, operation, variables, principal: OPEN, transport: 'http' }, LIMITS),
);
run();
const [parsePlain, parseLimited, validatePlain, validateArmor, guard] = [
  parsePlainM(),
  parseLimitedM(),
  validatePlainM(),
  validateArmorM(),
  guardM(),
];
variants.forEach((entry, i) =>
  process.stdout.write(
    `${entry.label.padEnd(52)} ${[parsePlain, parseLimited, validatePlain, validateArmor, guard][i]!.toFixed(1).padStart(8)} µs CPU/request\n`,
  ),
);
process.stdout.write(
  `\nadded by the limits: ${(parseLimited - parsePlain + validateArmor - validatePlain + guard).toFixed(1)} µs/request ` +
    `(tokens ${(parseLimited - parsePlain).toFixed(1)}, armor ${(validateArmor - validatePlain).toFixed(1)}, checkOperation ${guard.toFixed(1)})\n`,
);
