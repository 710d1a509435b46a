/**
 * `tally import` end to end, in-process against a real server: generated logs in every supported format,
 * gzipped and not, from files and stdin, into the GraphQL target (and once into the database directly);
 * every page's HOUR and DAY series must equal a naive count of the same lines.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { Document } from 'mongodb';
import { gzipSync } from 'node:zlib';
import { formatLogEntry, generateLogEntries, STYLE_FORMATS } from '../../bench/shared/accessLogs';
import type { LogEntry, LogStyle } from '../../bench/shared/accessLogs';
import { runImportCommand } from '../../src/cli/importCommand';
import type { CommandIo } from '../../src/cli/importCommand';
import type { ImportSummary } from '../../src/cli/importSummary';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';
import { DAILY_COLLECTION } from '../../src/store/dailyStats';
import { compareSeries, expectedHits } from '../support/importTruth';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';
import { testMongoUri } from '../support/testDatabase';

let app: TestApp;
let dir: string;
const START = Date.UTC(2026, 2, 28, 12); // spans the last Sunday of March and a month end
const SPAN_MS = 4 * 86_400_000;

beforeAll(async () => {
  app = await startTestApp('import');
  dir = await mkdtemp(path.join(tmpdir(), 'tally-import-'));
});

afterAll(async () => {
  await app.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  summary: ImportSummary | undefined;
}

async function runImport(args: string[], stdin?: NodeJS.ReadableStream): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const out = new PassThrough().on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const err = new PassThrough().on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const io: CommandIo = {
    stdin: (stdin ?? new PassThrough().end()) as CommandIo['stdin'],
    stdout: out,
    stderr: err,
    env: {},
  };
  const code = await runImportCommand(args, io);
  let summary: ImportSummary | undefined;
  try {
    summary = JSON.parse(stdout) as ImportSummary;
  } catch {
    summary = undefined;
  }
  return { code, stdout, stderr, summary };
}

function entries(seed: number, sites: string[], count = 1_500): LogEntry[] {
  return [...generateLogEntries({ count, seed, sites, start: START, spanMs: SPAN_MS })];
}

function naiveFiltered(list: readonly LogEntry[], style: LogStyle): Record<string, number> {
  const count = (kind: LogEntry['kind']): number => list.filter((e) => e.kind === kind).length;
  return {
    status: count('status'),
    method: count('method'),
    asset: count('asset'),
    bot: style === 'common' ? 0 : count('bot'),
  };
}

describe('tally import into a running server over GraphQL', () => {
  const cases: Array<[LogStyle, boolean, 'file' | 'stdin']> = [
    ['combined', false, 'file'],
    ['combined', true, 'file'],
    ['common', false, 'file'],
    ['common', true, 'stdin'],
    ['vhost', false, 'stdin'],
    ['vhost', true, 'file'],
    ['iso', false, 'file'],
    ['iso', true, 'file'],
  ];

  it.each(cases)('imports a %s log (gzipped: %s, from %s) with every series exact', async (style, gzip, via) => {
    const label = `${style}-${gzip ? 'gz' : 'plain'}-${via}`;
    const hostSites = [`a.${label}.test`, `b.${label}.test`];
    const list = entries(label.length * 7919 + (gzip ? 1 : 0), hostSites);
    const usesHost = style === 'vhost' || style === 'iso';
    const site = usesHost ? undefined : `${label}.test`;
    const text = `${list.map((e) => formatLogEntry(e, style)).join('\n')}\n`;
    const file = path.join(dir, `${label}.log${gzip ? '.gz' : ''}`);
    await writeFile(file, gzip ? gzipSync(text) : text);

    const args = ['--url', `${app.url}/graphql`, '--batch-lines', '200', '--progress', 'none', '--json'];
    if (style !== 'combined') args.push('--format', STYLE_FORMATS[style]);
    if (site !== undefined) args.push('--site', site);
    const run = await runImport(
      via === 'stdin' ? [...args, '-'] : [...args, file],
      via === 'stdin' ? createReadStream(file) : undefined,
    );

    const hits = expectedHits(list, style, site);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.summary).toMatchObject({
      outcome: 'complete',
      linesRead: list.length,
      hitsParsed: hits.length,
      hitsImported: hits.length,
      unparseable: 0,
      invalid: 0,
      filtered: naiveFiltered(list, style),
      sites: site === undefined ? hostSites : [site],
    });
    expect(await compareSeries(`${app.url}/graphql`, hits)).toEqual([]);
  });

  it('counts nothing twice when the same file is imported again, and refuses the same lines with other options', async () => {
    const site = 'again.test';
    const list = entries(9001, [site], 600);
    const file = path.join(dir, 'again.log');
    await writeFile(file, `${list.map((e) => formatLogEntry(e, 'combined')).join('\n')}\n`);
    const args = [
      '--url',
      `${app.url}/graphql`,
      '--site',
      site,
      '--batch-lines',
      '100',
      '--progress',
      'none',
      '--json',
      file,
    ];
    const hits = expectedHits(list, 'combined', site);
    expect((await runImport(args)).code).toBe(0);
    const again = await runImport(args);
    expect(again.code).toBe(0);
    expect(again.summary).toMatchObject({ outcome: 'complete', batchesFailed: 0, hitsImported: hits.length });
    expect(await compareSeries(`${app.url}/graphql`, hits)).toEqual([]);

    // Other options make other hits under the same keys: the server refuses them rather than counting twice.
    const changed = await runImport([...args, '--keep-query']);
    expect(changed.code).toBe(1);
    expect(changed.summary?.outcome).toBe('partial');
    expect(changed.summary?.failures[0]).toMatch(/IDEMPOTENCY_KEY_REUSED/);
    expect(await compareSeries(`${app.url}/graphql`, hits)).toEqual([]);
  });

  it('writes into the database directly with --mongodb-uri through the same ingest core', async () => {
    const site = 'direct.test';
    const list = entries(4242, [site]);
    const file = path.join(dir, 'direct.log');
    await writeFile(file, `${list.map((e) => formatLogEntry(e, 'combined')).join('\n')}\n`);
    const run = await runImport([
      '--mongodb-uri',
      testMongoUri(),
      '--db',
      app.services.databaseName,
      '--site',
      site,
      '--batch-lines',
      '300',
      '--progress',
      'none',
      '--json',
      file,
    ]);
    const hits = expectedHits(list, 'combined', site);
    expect(run.code).toBe(0);
    expect(run.summary).toMatchObject({ outcome: 'complete', hitsImported: hits.length });
    expect(await compareSeries(`${app.url}/graphql`, hits)).toEqual([]);
  });
});

describe('tally import of visitors and dimensions', () => {
  const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
  const IPHONE =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
  const LOG = [
    `193.0.6.139 - - [10/Mar/2026:12:00:00 +0000] "GET /l?utm_source=News HTTP/1.1" 200 512 "https://www.google.com/" "${FIREFOX}"`,
    `193.0.6.139 - - [10/Mar/2026:12:05:00 +0000] "GET /l HTTP/1.1" 200 512 "-" "${FIREFOX}"`,
    `8.8.8.8 - - [10/Mar/2026:12:06:00 +0000] "GET /l HTTP/1.1" 200 512 "https://news.example/a" "${IPHONE}"`,
  ].join('\n');
  // Batches are keyed by the file's content: each import here gets a file of its own (a last, unparseable line).
  const logFor = (site: string): string => `${LOG}\n# ${site}\n`;
  const day = (site: string) =>
    app.database.db.collection<Document>(DAILY_COLLECTION).findOne({ _id: `20260310/${site}/l` } as Document);
  const expectedDimensions = {
    source: { Google: 1, '(direct)': 1, 'news%2Eexample': 1 },
    utmSource: { news: 1, '(none)': 2 },
    utmMedium: { '(none)': 3 },
    utmCampaign: { '(none)': 3 },
    browser: { Firefox: 2, Safari: 1 },
    os: { Linux: 2, iOS: 1 },
    device: { desktop: 2, mobile: 1 },
    country: { NL: 2, US: 1 },
  };

  it.each([
    [
      'GraphQL',
      'dims-graphql.test',
      (site: string, file: string) => ['--url', `${app.url}/graphql`, '--site', site, file],
    ],
    [
      'the database directly',
      'dims-direct.test',
      (site: string, file: string) => [
        '--mongodb-uri',
        testMongoUri(),
        '--db',
        app.services.databaseName,
        '--site',
        site,
        file,
      ],
    ],
  ])('carries each line’s visitor and dimension inputs to %s, counted once when run again', async (_, site, argsOf) => {
    const file = path.join(dir, `${site}.log`);
    await writeFile(file, logFor(site));
    const args = [...argsOf(site, file), '--progress', 'none', '--json'];
    expect((await runImport(args)).code).toBe(0);
    expect((await runImport(args)).summary).toMatchObject({ outcome: 'complete', batchesFailed: 0 });
    const stored = await day(site);
    expect(stored?.daily).toBe(3);
    expect(stored?.d).toEqual(expectedDimensions);
    expect(Math.round(VisitorSketch.fromStoredFields(stored?.v as Document, 11).estimate())).toBe(2);
  });

  it('sends no visitors with --no-visitors, and no dimension inputs with --no-dimensions', async () => {
    const run = async (site: string, flag: string): Promise<number> => {
      const file = path.join(dir, `${site}.log`);
      await writeFile(file, logFor(site));
      return (await runImport(['--site', site, flag, '--url', `${app.url}/graphql`, '--progress', 'none', file])).code;
    };
    expect(await run('novisitors.test', '--no-visitors')).toBe(0);
    const withoutVisitors = await day('novisitors.test');
    expect(withoutVisitors?.v).toBeUndefined();
    expect(withoutVisitors?.d).toEqual(expectedDimensions);
    expect(await run('nodims.test', '--no-dimensions')).toBe(0);
    const withoutInputs = await day('nodims.test');
    expect((withoutInputs?.d as Document).source).toEqual({ '(direct)': 3 });
    expect(withoutInputs?.v).toBeDefined();
  });
});

describe('tally import with malformed lines', () => {
  it('counts unparseable lines, shows the first five with line numbers, and imports the rest exactly', async () => {
    const site = 'malformed.test';
    const list = entries(77, [site], 400);
    const good = list.map((e) => formatLogEntry(e, 'combined'));
    const sample = good[0] as string;
    const junk = Buffer.from(Array.from({ length: 500 }, (_, i) => (i * 131 + 7) % 256).filter((b) => b !== 10));
    const bad = [
      sample.slice(0, 50),
      sample.replace(/\[\d\d\/\w\w\w/, '[45/Foo'),
      junk.toString('latin1'),
      `${sample.slice(0, 80)}${'x'.repeat(100 * 1024)}`,
      '',
      sample.replace(/\d\d\d\d:/, 'year:'),
      sample.slice(0, -1),
    ];
    // Bad lines go at known line numbers: after good lines 10, 20, 30, …
    const lines: Buffer[] = [];
    const badLineNumbers: number[] = [];
    good.forEach((line, i) => {
      lines.push(Buffer.from(`${line}\n`, 'latin1'));
      const extra = bad[Math.floor(i / 10)];
      if (i % 10 === 9 && extra !== undefined) {
        lines.push(Buffer.concat([Buffer.from(extra, 'latin1'), Buffer.from('\n')]));
        badLineNumbers.push(lines.length);
      }
    });
    const file = path.join(dir, 'malformed.log.gz');
    await writeFile(file, gzipSync(Buffer.concat(lines)));

    const run = await runImport([
      '--url',
      `${app.url}/graphql`,
      '--site',
      site,
      '--batch-lines',
      '100',
      '--progress',
      'none',
      file,
    ]);
    const hits = expectedHits(list, 'combined', site);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`  unparseable   ${bad.length}\n`);
    expect(run.stdout).toContain(`unparseable lines (first 5 of ${bad.length}):`);
    for (const n of badLineNumbers.slice(0, 5)) expect(run.stdout).toContain(`${file}:${n}: `);
    expect(run.stdout).toContain(`${file}:${badLineNumbers[0]}: expected "\\" " after $request: `);
    expect(run.stdout).toContain(`${file}:${badLineNumbers[1]}: bad $time_local "45/Foo/`);
    expect(run.stdout).toContain(`hits imported ${hits.length.toLocaleString('en-US')} of`);
    expect(await compareSeries(`${app.url}/graphql`, hits)).toEqual([]);
  });

  it('exits 1 and points at --format when no line matches the format', async () => {
    const file = path.join(dir, 'wrong-format.log');
    await writeFile(
      file,
      `${entries(5, ['w.test'], 20)
        .map((e) => formatLogEntry(e, 'combined'))
        .join('\n')}\n`,
    );
    const run = await runImport(['--dry-run', '--format', STYLE_FORMATS.iso, '--progress', 'none', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('  unparseable   20\n');
    expect(run.stdout).toContain('No line matched the log format: check --format');
  });

  it('reports a truncated .gz as unreadable (exit 1) and still reads the other files', async () => {
    const text = `${entries(6, ['t.test'], 3_000)
      .map((e) => formatLogEntry(e, 'combined'))
      .join('\n')}\n`;
    const gz = gzipSync(text);
    const truncated = path.join(dir, 'truncated.log.gz');
    const whole = path.join(dir, 'whole.log');
    await writeFile(truncated, gz.subarray(0, Math.floor(gz.length / 2)));
    await writeFile(whole, text);
    const run = await runImport(['--dry-run', '--site', 't.test', '--progress', 'none', '--json', truncated, whole]);
    expect(run.code).toBe(1);
    expect(run.summary?.readErrors).toEqual([{ input: truncated, message: 'unexpected end of file' }]);
    expect(run.summary?.linesRead).toBeGreaterThan(3_000);
    expect(run.summary?.linesRead).toBeLessThan(6_000);
  });

  it('exits 2 with a usage message for a missing file, and reads nothing', async () => {
    const run = await runImport(['--site', 's', path.join(dir, 'nope.log')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `tally import: cannot read ${path.join(dir, 'nope.log')}: ENOENT\nRun "tally import --help" for usage.\n`,
    );
  });
});
