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
      audienceIngest?: {
        runs: Array<{ shape: string; variant: string; engine: string; hits: number; errors: number }>;
      };
      audienceStorage?: {
        sketchGrowth: Array<{ visitors: number; pageDay: { without: number; with: number } }>;
        referrerHosts: Array<{ hosts: number; maxValues: number; sourceKeys: number; documentBytes: number }>;
      };
      audienceQueries?: {
        cells: Array<{ kind: string; totalCount?: number; distinctInHits?: number; otherHits?: number }>;
        accuracy: Array<{ level: string; errors: { pairs: number; missing: number } }>;
      };
      visitorAccuracy?: {
        server: Array<{ range: { estimate: number | null; truth: number } }>;
        site: { range: { estimate: number | null; truth: number } };
      };
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
    // Sections 7–10 (visitors and dimensions): every variant on both traffic shapes, on this run's engine.
    const variants = ['off', 'visitors', 'dimensions', 'all', 'allWithoutValueVisitors'];
    expect(json.audienceIngest?.runs.map((r) => `${r.shape}/${r.variant}`).sort()).toEqual(
      ['realistic', 'narrow'].flatMap((shape) => variants.map((variant) => `${shape}/${variant}`)).sort(),
    );
    for (const run of json.audienceIngest?.runs ?? [])
      expect(run).toMatchObject({ engine: json.engine.label, errors: 0, hits: 2_000 });
    for (const row of json.audienceStorage?.sketchGrowth ?? [])
      expect(row.pageDay.with).toBeGreaterThan(row.pageDay.without);
    // A document keeps at most DIMENSION_MAX_VALUES sources of its own (plus `(other)`).
    for (const row of json.audienceStorage?.referrerHosts ?? []) {
      expect(row.sourceKeys).toBe(row.hosts <= row.maxValues ? row.hosts : row.maxValues + 1);
      expect(row.documentBytes).toBeLessThan(16 * 1024 * 1024);
    }
    // Below the cap, a breakdown counts exactly the distinct sources its hits had.
    const breakdowns = json.audienceQueries?.cells.filter((c) => c.kind === 'breakdownSource') ?? [];
    expect(breakdowns).toHaveLength(6);
    for (const cell of breakdowns) {
      expect(cell.otherHits).toBe(0);
      expect(cell.totalCount).toBe(cell.distinctInHits);
    }
    for (const row of json.audienceQueries?.accuracy ?? []) expect(row.errors).toMatchObject({ missing: 0 });
    // Up to 100 visitors an estimate is within one of the truth (issue 19), through the server's keyed hashes.
    for (const row of [...(json.visitorAccuracy?.server ?? []), json.visitorAccuracy?.site]) {
      expect(Math.abs((row?.range.estimate ?? Number.NaN) - (row?.range.truth ?? 0))).toBeLessThanOrEqual(1);
    }
    const csv = fs.readFileSync(path.join(output.resultsDir, 'results.csv'), 'utf8');
    expect(csv).toMatch(/^section,variant,metric,value,unit,engine\n/);
    expect(csv).toContain(`audience-ingest,realistic/all,hits_per_s,`);
    const report = fs.readFileSync(output.reportPath, 'utf8');
    expect(report).toContain('# Benchmarks');
    expect(report).toContain(json.engine.label);
    expect(report).toContain(`## At 1,000 hits: raw events against tally (${json.engine.label})`);
    for (const heading of [
      '## 7. Ingest with visitors and dimensions',
      '## 8. Storage of visitors and dimensions',
      '## 9. Queries of visitors and breakdowns',
      '## 10. Visitor accuracy: estimates against the true count',
    ])
      expect(report).toContain(`${heading} (${json.engine.label})`);
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
  }, 360_000);
});
