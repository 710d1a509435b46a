/**
 * Writes one run's results: results.json and results.csv under bench-results/<timestamp>/, the SVG charts and
 * docs/benchmarks.md (with the separately measured figures of docs/benchmarks/*.md appended), and a copy of the
 * charts and the report beside the results, so each run keeps its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BenchResults } from '../suite/BenchResults';
import { runStamp } from '../suite/runStamp';
import { buildCharts } from './buildCharts';
import { renderReport } from './renderReport';
import { writeResults } from './writeResults';

export interface ReportPaths {
  /** bench-results/<timestamp>/ */
  readonly resultsDir: string;
  readonly reportPath: string;
  readonly chartPaths: string[];
}

export function writeReport(results: BenchResults, dirs: { resultsDir: string; docsDir: string }): ReportPaths {
  const resultsDir = path.join(dirs.resultsDir, runStamp(results.startedAt));
  writeResults(resultsDir, results);
  const chartDir = path.join(dirs.docsDir, 'benchmarks');
  fs.mkdirSync(chartDir, { recursive: true });
  const chartPaths: string[] = [];
  for (const [name, svg] of buildCharts(results)) {
    const file = path.join(chartDir, name);
    fs.writeFileSync(file, svg);
    chartPaths.push(file);
    // A copy next to the machine-readable results, so each run keeps its own charts.
    fs.writeFileSync(path.join(resultsDir, name), svg);
  }
  const reportPath = path.join(dirs.docsDir, 'benchmarks.md');
  const report = renderReport(results) + separateMeasurements(dirs.docsDir);
  fs.writeFileSync(reportPath, report);
  fs.writeFileSync(path.join(resultsDir, 'benchmarks.md'), report);
  return { resultsDir, reportPath, chartPaths };
}

/**
 * Figures measured by their own commands (top pages, site-totals write cost) live in docs/benchmarks/*.md and are
 * appended verbatim, so regenerating the report never drops them.
 */
export function separateMeasurements(docsDir: string): string {
  const dir = path.join(docsDir, 'benchmarks');
  if (!fs.existsSync(dir)) return '';
  return (
    fs
      .readdirSync(dir)
      // soak.md is a report of its own, with charts beside it (bench/soak/main.ts).
      .filter((name) => name.endsWith('.md') && name !== 'soak.md')
      .sort()
      .map((name) => `\n${fs.readFileSync(path.join(dir, name), 'utf8').trim()}\n`)
      .join('')
  );
}
