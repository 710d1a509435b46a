/**
 * `npm run bench [-- --quick | --smoke] [--results-dir DIR] [--docs-dir DIR]`: runs the benchmark suite against
 * MONGODB_URI (or the embedded server) and writes bench-results/<timestamp>/ and docs/benchmarks.md.
 */
import path from 'node:path';
import { projectRoot } from '../src/projectRoot';
import type { BenchMode, BenchOptions } from './options';
import { runBench } from './runBench';

function parseArgs(argv: readonly string[]): BenchOptions {
  const root = projectRoot();
  let mode: BenchMode = 'full';
  let resultsDir = path.join(root, 'bench-results');
  let docsDir = path.join(root, 'docs');
  const only: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') mode = 'quick';
    else if (arg === '--smoke') mode = 'smoke';
    else if (arg === '--full') mode = 'full';
    else if (arg === '--results-dir') resultsDir = path.resolve(argv[++i] ?? '');
    else if (arg === '--docs-dir') docsDir = path.resolve(argv[++i] ?? '');
    else if (arg === '--only') only.push(argv[++i] ?? '');
    else
      throw new Error(
        `unknown argument ${JSON.stringify(arg)}; expected --quick, --smoke, --full, --results-dir DIR, --docs-dir DIR or --only SECTION`,
      );
  }
  return { mode, resultsDir, docsDir, server: 'child', ...(only.length > 0 ? { only } : {}) };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
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
