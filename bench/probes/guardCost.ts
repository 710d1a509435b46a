/**
 * Probe (issue 27): what the request guard (checkOperation) costs a `recordHits` request, on the variables as sent
 * (rawArgsSuffice: what the server does now) and coerced first (what it did before; forced here by an
 * `@include(if: true)`, which makes variables decide the fields), side by side in one run, alternating. The hits are
 * the benchmark's realistic shape (a page, a time, a visitor, a referrer, a User-Agent, an address). Prints
 * microseconds per request, asserts nothing.
 *   npm run build && node dist/bench/probes/guardCost.js [--hits 100] [--requests 5000]
 */
import { getOperationAST, parse } from 'graphql';
import { OPEN } from '../../src/auth/Principal';
import { loadConfig } from '../../src/config/loadConfig';
import { buildSchema } from '../../src/graphql/buildSchema';
import { checkOperation } from '../../src/graphql/guard/checkOperation';
import { requestLimitsOf } from '../../src/app/requestLimitsOf';
import { parseOptions } from '../shared/options';

const options = parseOptions(process.argv.slice(2), {
  hits: { kind: 'integer', default: 100 },
  requests: { kind: 'integer', default: 5000 },
});

const schema = buildSchema();
// The limits a server started with no settings guards with.
const LIMITS = requestLimitsOf(loadConfig({}));
const now = Date.now();
const hits = Array.from({ length: options.hits }, (_, i) => ({
  site: 'bench.example',
  page: `/articles/${String(i % 500).padStart(4, '0')}.html`,
  at: new Date(now - i * 1000).toISOString(),
  visitor: `visitor-${i % 20}`,
  referrer: 'https://www.google.com/',
  userAgent:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  clientIp: '203.0.113.7',
}));

const variants = {
  'as sent (now)': 'mutation($hits: [HitInput!]!) { recordHits(hits: $hits) { accepted total } }',
  'coerced first (before)':
    'mutation($hits: [HitInput!]!) { recordHits(hits: $hits) @include(if: true) { accepted total } }',
};

function timeVariant(query: string, requests: number): number {
  const document = parse(query);
  const operation = getOperationAST(document)!;
  const start = process.hrtime.bigint();
  for (let i = 0; i < requests; i++) {
    checkOperation({ schema, document, operation, variables: { hits }, principal: OPEN, transport: 'http' }, LIMITS);
  }
  return Number(process.hrtime.bigint() - start) / 1e3 / requests;
}

const samples = new Map<string, number[]>(Object.keys(variants).map((name) => [name, []]));
for (let round = 0; round < 4; round++) {
  for (const [name, query] of Object.entries(variants)) {
    const us = timeVariant(query, options.requests);
    if (round > 0) samples.get(name)!.push(us); // the first round warms the JIT
  }
}
console.log(`checkOperation, recordHits of ${options.hits} hits, ${options.requests} requests per round, 3 rounds`);
console.log('');
console.log('| guard | µs per request (rounds) | µs per hit (median) |');
console.log('| --- | --- | --- |');
for (const [name, values] of samples) {
  const median = [...values].sort((a, b) => a - b)[1]!;
  console.log(`| ${name} | ${values.map((v) => v.toFixed(1)).join(', ')} | ${(median / options.hits).toFixed(2)} |`);
}
