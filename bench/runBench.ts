/** `npm run bench` as a function: runs the suite's sections, then writes the results and the report. */
import type { ReportPaths } from './report/writeReport';
import { writeReport } from './report/writeReport';
import type { BenchOptions } from './suite/BenchOptions';
import type { BenchResults } from './suite/BenchResults';
import { runSections } from './suite/runSections';

export interface BenchOutput extends ReportPaths {
  readonly results: BenchResults;
}

export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<BenchOutput> {
  const results = await runSections(options, log);
  return { results, ...writeReport(results, options) };
}
