/**
 * Smoke test of the benchmark suite: a tiny run against the test database produces the JSON and CSV results,
 * the markdown report and the charts. No thresholds: benchmarks print numbers, they do not pass or fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runBench } from '../../bench/runBench';

describe('npm run bench -- --smoke', () => {
  let dir: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-bench-'));
  });

  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes results.json, results.csv, benchmarks.md and the SVG charts', async () => {
    const output = await runBench(
      {
        mode: 'smoke',
        resultsDir: path.join(dir, 'results'),
        docsDir: path.join(dir, 'docs'),
        // The built server may be stale under jest; the smoke run hosts it in-process instead.
        server: 'in-process',
      },
      () => undefined,
    );

    const json = JSON.parse(fs.readFileSync(path.join(output.resultsDir, 'results.json'), 'utf8')) as {
      engine: { name: string; label: string; build?: string };
      failures: unknown[];
      schemaGrowth?: unknown;
      ingest?: { runs: Array<{ engine: string; target: string; hitsPerSecond: number }> };
      queries?: {
        hitsAtLargest: number;
        cells: Array<{ dataSize: number; design: string; documentsExamined?: number; documentsReturned?: number }>;
        dataSets: Array<{ dataSize: number; storage: { raw?: { size: number }; daily?: unknown } }>;
      };
      storage?: unknown;
    };
    expect(['MongoDB', 'FerretDB']).toContain(json.engine.name);
    expect(json.failures).toEqual([]);
    // FerretDB's build is told apart by its query plans; the test server is the patched build.
    if (json.engine.name === 'FerretDB') expect(json.engine.build).toBe('patched');
    expect(json.ingest?.runs.length).toBeGreaterThan(0);
    for (const run of json.ingest?.runs ?? [])
      expect(run).toMatchObject({ engine: json.engine.label, target: 'primary' });
    // Every data size is fully loaded and reports both designs' storage.
    expect(json.queries?.dataSets.map((d) => d.dataSize)).toEqual([100, 1_000]);
    expect(json.queries?.hitsAtLargest).toBe(1_000);
    // Every driver read is explained: the database examines at least what it returns, and on FerretDB (no
    // pushdown of the raw-event filter) the raw-event read examines every stored event.
    for (const cell of json.queries?.cells.filter((c) => c.design !== 'tally GraphQL') ?? []) {
      expect(cell.documentsExamined).toBeGreaterThanOrEqual(cell.documentsReturned ?? 0);
      if (json.engine.name === 'FerretDB' && cell.design === 'raw events')
        expect(cell.documentsExamined).toBe(cell.dataSize);
    }
    for (const set of json.queries?.dataSets ?? []) {
      expect(set.storage.raw?.size).toBeGreaterThan(0);
      expect(set.storage.daily).toBeDefined();
    }
    expect(Object.keys(json)).toEqual(expect.arrayContaining(['schemaGrowth', 'ingest', 'queries', 'storage']));
    expect(fs.readFileSync(path.join(output.resultsDir, 'results.csv'), 'utf8')).toMatch(
      /^section,variant,metric,value,unit,engine\n/,
    );
    const report = fs.readFileSync(output.reportPath, 'utf8');
    expect(report).toContain('# Benchmarks');
    expect(report).toContain(json.engine.label);
    expect(report).toContain(`## At 1,000 hits: raw events against tally (${json.engine.label})`);
    expect(output.chartPaths.map((file) => path.basename(file)).sort()).toEqual([
      'ingest.svg',
      'query-bytes.svg',
      'query-dashboard20.svg',
      'query-documents.svg',
      'query-last7DaysByHour.svg',
      'query-last90DaysByDay.svg',
      'query-lastHourByMinute.svg',
      'schema-growth.svg',
      'storage-scale.svg',
      'storage.svg',
    ]);
    for (const file of output.chartPaths)
      expect(fs.readFileSync(file, 'utf8')).toMatch(/^<svg [^>]*>[\s\S]*<\/svg>\n$/);
  }, 180_000);
});
