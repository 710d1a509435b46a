/**
 * `npm run bench [-- --quick | --smoke] [--results-dir DIR] [--docs-dir DIR] [--ferretdb-binary PATH]
 * [--compare-stock | --compare-ferretdb-binary PATH] [--only SECTION]`: runs the benchmark suite against MONGODB_URI (or the
 * embedded server) and writes bench-results/<timestamp>/ and docs/benchmarks.md.
 */
import path from 'node:path';
import { parseBenchOptions } from './suite/parseBenchOptions';
import { runBench } from './runBench';

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2), process.env);
  const started = Date.now();
  console.log(`tally benchmarks, ${options.mode} mode`);
  const output = await runBench(options, (line) => console.log(line));
  console.log(`\nresults: ${output.resultsDir}`);
  console.log(`report:  ${output.reportPath}`);
  console.log(`charts:  ${output.chartPaths.length} SVGs in ${path.dirname(output.chartPaths[0] ?? options.docsDir)}`);
  console.log(`took ${((Date.now() - started) / 1000).toFixed(0)} s`);
  if (output.results.failures.length > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
