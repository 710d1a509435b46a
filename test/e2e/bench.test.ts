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
      engine: { name: string };
      failures: unknown[];
      schemaGrowth?: unknown;
      ingest?: unknown;
      queries?: unknown;
      storage?: unknown;
    };
    expect(['MongoDB', 'FerretDB']).toContain(json.engine.name);
    expect(json.failures).toEqual([]);
    expect(Object.keys(json)).toEqual(expect.arrayContaining(['schemaGrowth', 'ingest', 'queries', 'storage']));
    expect(fs.readFileSync(path.join(output.resultsDir, 'results.csv'), 'utf8')).toMatch(
      /^section,variant,metric,value,unit,engine\n/,
    );
    const report = fs.readFileSync(output.reportPath, 'utf8');
    expect(report).toContain('# Benchmarks');
    expect(report).toContain(json.engine.name);
    expect(output.chartPaths.map((file) => path.basename(file)).sort()).toEqual([
      'ingest.svg',
      'query-dashboard20.svg',
      'query-last7DaysByHour.svg',
      'query-last90DaysByDay.svg',
      'query-lastHourByMinute.svg',
      'schema-growth.svg',
      'storage.svg',
    ]);
    for (const file of output.chartPaths)
      expect(fs.readFileSync(file, 'utf8')).toMatch(/^<svg [^>]*>[\s\S]*<\/svg>\n$/);
  }, 180_000);
});
