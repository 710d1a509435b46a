/**
 * Hostile input, property-based (fast-check, bounded runs and time): generated documents, variables and raw
 * bodies sent over real HTTP (and the beacon endpoint). Whatever comes in: never a 5xx, never a stack trace,
 * file path or driver message in a response, and the process's memory stays bounded.
 */
import fc from 'fast-check';
import { assertProperty } from '../support/assertProperty';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const RUNS = 120;
/** A guard against a hung server: reaching it fails the test, which requires all RUNS cases. */
const TIME_LIMIT_MS = 45_000;
/** What must never reach a client: stack frames, file paths, driver or engine internals. */
const LEAKS = [
  /\n\s+at /,
  /\bat .*\(.*:\d+:\d+\)/,
  /\/work\//,
  /node_modules/,
  /\.ts:\d+/,
  /Mongo[A-Z]\w*Error/,
  /ferretdb/i,
  /sqlite/i,
];

let app: TestApp;
let rssBefore: number;

beforeAll(async () => {
  app = await startTestApp('fuzz', {}, () => NOW);
  rssBefore = process.memoryUsage().rss;
});

afterAll(async () => {
  await app.stop();
});

async function send(path: string, contentType: string, body: string): Promise<void> {
  const response = await fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType, origin: 'https://fuzz.example', 'user-agent': 'Mozilla/5.0 fuzz' },
    body,
  });
  const text = await response.text();
  if (response.status >= 500)
    throw new Error(`status ${response.status} for ${body.slice(0, 200)}: ${text.slice(0, 500)}`);
  for (const leak of LEAKS) {
    if (leak.test(text)) throw new Error(`response leaks ${leak} for ${body.slice(0, 200)}: ${text.slice(0, 500)}`);
  }
}

const names = fc.constantFrom(
  'pageStats',
  'recordHit',
  'recordHits',
  'preallocate',
  'serverInfo',
  'pageStatsLive',
  'userImpressions',
  'topItems',
  'recordImpressions',
  '__schema',
  '__type',
  '__typename',
  'total',
  'values',
  'points',
  't',
  'hits',
  'site',
  'page',
  'range',
  'from',
  'to',
  'granularity',
  'nope',
  'edges',
  'node',
  'version',
  'database',
);
const scalars = fc.oneof(
  fc.string({ maxLength: 30 }).map((s) => JSON.stringify(s)),
  fc.integer().map(String),
  fc.double({ noNaN: true }).map(String),
  fc.constantFrom('MINUTE', 'SECOND', 'MONTH', 'true', 'null', '$v', '"0050-01-01T00:00:00Z"', '"/"', '"-1"'),
  fc
    .date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true })
    .map((d) => JSON.stringify(d.toISOString())),
);
const tokens = fc.oneof(
  names,
  scalars,
  fc.constantFrom(
    '{',
    '}',
    '(',
    ')',
    ':',
    '[',
    ']',
    ',',
    '...',
    'on',
    'query',
    'mutation',
    'subscription',
    'fragment',
    '@skip(if: true)',
    '$v: DateTime',
    '=',
  ),
);
const documents = fc.array(tokens, { maxLength: 80 }).map((parts) => parts.join(' '));
/** Mostly well-formed operations with hostile argument values. */
const operations = fc
  .tuple(
    fc.constantFrom('query', 'mutation', 'subscription', ''),
    names,
    fc.array(fc.tuple(names, scalars), { maxLength: 5 }),
    fc.array(names, { maxLength: 5 }),
  )
  .map(([kind, field, args, selection]) => {
    const argList = args.length ? `(${args.map(([n, v]) => `${n}: ${v}`).join(', ')})` : '';
    const sel = selection.length ? `{ ${selection.join(' ')} }` : '';
    return `${kind} { ${field}${argList} ${sel} }`;
  });
const variables = fc.dictionary(
  fc.constantFrom('v', 'from', 'to', 'hits', 'site', 'page'),
  fc.jsonValue({ maxDepth: 3 }),
);

describe('hostile input over HTTP', () => {
  it('never answers a generated GraphQL request with a 5xx or a leak', async () => {
    let runs = 0;
    await assertProperty(
      'fuzzed GraphQL requests',
      fc.asyncProperty(fc.oneof(documents, operations), fc.option(variables), async (query, vars) => {
        runs += 1;
        await send('/graphql', 'application/json', JSON.stringify({ query, variables: vars }));
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS },
    );
    // An interrupted run passes fast-check: only the count says every planned case was sent.
    expect(runs).toBe(RUNS);
  }, 90_000);

  it('never answers a raw body with a 5xx or a leak', async () => {
    const contentTypes = fc.constantFrom(
      'application/json',
      'text/plain',
      'application/graphql',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
      '',
    );
    const bodies = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
    );
    let runs = 0;
    await assertProperty(
      'fuzzed raw bodies',
      fc.asyncProperty(fc.constantFrom('/graphql', '/api/hit'), contentTypes, bodies, async (path, type, body) => {
        runs += 1;
        await send(path, type, body);
      }),
      { numRuns: RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS },
    );
    expect(runs).toBe(RUNS);
  }, 90_000);

  it('keeps the process memory bounded', () => {
    const growthMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
    expect(growthMb).toBeLessThan(400);
  });
});
