/**
 * `npm run build && node dist/bench/soak/main.js [--minutes 30] [--rate N | --ramp-start N …] [--visitors N]
 * [--dimensions] [--server-env NAME=VALUE]`: the soak benchmark of issue 21 against MONGODB_URI (or the embedded
 * server), written to docs/benchmarks/soak.md with its charts, and every sample to bench-results/soak-<time>/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { loadConfig } from '../../src/config/loadConfig';
import { projectRoot } from '../../src/projectRoot';
import { openTarget } from '../shared/target';
import { runStamp } from '../suite/runStamp';
import { renderSoakReport } from './renderSoakReport';
import { runSoak } from './runSoak';
import { soakCharts } from './soakCharts';
import { parseSoakOptions, serverEnv } from './SoakOptions';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const options = parseSoakOptions(argv);
  const began = Date.now();
  const uri = process.env.MONGODB_URI || undefined;
  // The nice value the server would give its own embedded server with this mode and environment (TALLY_EMBEDDED_NICE).
  const niceness = loadConfig({ ...serverEnv(options), INGEST_ACK: options['ingest-ack'] }).embeddedNiceness;
  const target = await openTarget({ uri, niceness });
  const stamp = runStamp(new Date(began).toISOString());
  const dbName = `soak_${stamp}`;
  console.log(`soak benchmark on ${target.label} (database ${dbName})`);
  try {
    const resultsDir = path.resolve(
      options['results-dir'] ?? path.join(projectRoot(), 'bench-results'),
      `soak-${stamp}`,
    );
    const result = await runSoak(
      options,
      target,
      dbName,
      (line) => console.log(line),
      (minute, profile) => {
        fs.mkdirSync(resultsDir, { recursive: true });
        fs.writeFileSync(
          path.join(resultsDir, `heap-minute-${Math.round(minute)}.heapprofile`),
          JSON.stringify(profile),
        );
      },
    );
    fs.mkdirSync(resultsDir, { recursive: true });
    fs.writeFileSync(
      path.join(resultsDir, 'soak.json'),
      `${JSON.stringify({ engine: target.label, options, ...result }, null, 2)}\n`,
    );
    const docsDir = path.resolve(options['docs-dir'] ?? path.join(projectRoot(), 'docs'), 'benchmarks');
    fs.mkdirSync(docsDir, { recursive: true });
    const charts = soakCharts(result, target.label);
    for (const [name, svg] of charts) {
      fs.writeFileSync(path.join(docsDir, name), svg);
      fs.writeFileSync(path.join(resultsDir, name), svg);
    }
    const command = `${uri ? 'MONGODB_URI=… ' : ''}npm run build && node dist/bench/soak/main.js${argv.length ? ` ${argv.join(' ')}` : ''}`;
    const report = renderSoakReport({
      result,
      options,
      target,
      command,
      resultsDir: path.relative(projectRoot(), resultsDir).replace(/-\d{8}_\d{6}$/, '-<time>'),
      chartNames: charts.map(([name]) => name),
      tookSeconds: (Date.now() - began) / 1000,
    });
    fs.writeFileSync(path.join(docsDir, 'soak.md'), report);
    fs.writeFileSync(path.join(resultsDir, 'soak.md'), report);
    console.log(`report: ${path.join(docsDir, 'soak.md')}\nsamples: ${resultsDir}`);
  } finally {
    if (uri) {
      const client = new MongoClient(uri);
      await client
        .db(dbName)
        .dropDatabase()
        .catch(() => undefined);
      await client.close();
    }
    await target.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
