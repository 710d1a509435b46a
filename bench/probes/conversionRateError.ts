/**
 * Probe (issue 28): how far a conversion rate estimated from visitor sketches lands from the exact rate, with the
 * site's visitors read at the site's precision (what `conversions` does) or folded to the goal's (page and event
 * sketches are coarser), so that the two sketches' errors would be correlated. Deterministic (splitmix64 visitors).
 * Prints a table, asserts nothing.
 *   npm run build && node dist/bench/probes/conversionRateError.js [--trials 30] [--help]
 */
import { splitmix64 } from '../../src/domain/visitors/splitmix64';
import { VISITOR_PRECISION } from '../../src/domain/visitors/VisitorPrecision';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';
import { parseOptions } from '../shared/options';

const options = parseOptions(process.argv.slice(2), { trials: { kind: 'integer', default: 30 } });

/** Site visitors and the share of them that converts: the rates and sizes of docs/benchmarks.md's accuracy table. */
const CASES: ReadonlyArray<readonly [visitors: number, rate: number]> = [
  [1_000, 0.05],
  [1_000, 0.5],
  [10_000, 0.3],
  [130_000, 0.8],
  [230_000, 0.04],
  [230_000, 0.14],
  [230_000, 0.43],
  [230_000, 0.79],
];

const GOAL = VISITOR_PRECISION.pageDay;
const SITE = VISITOR_PRECISION.siteDay;

function points(errors: readonly number[]): { rms: number; worst: number } {
  const rms = Math.sqrt(errors.reduce((sum, e) => sum + e * e, 0) / errors.length);
  return { rms: rms * 100, worst: Math.max(...errors.map(Math.abs)) * 100 };
}

console.log(
  `conversion rate error in percentage points, ${options.trials} trials per row, goal sketch 2^${GOAL} registers`,
);
console.log('');
console.log(
  `| site visitors | rate | RMS, site at 2^${SITE} | worst, site at 2^${SITE} | RMS, site folded to 2^${GOAL} | worst, folded |`,
);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const [visitors, rate] of CASES) {
  const atSite: number[] = [];
  const folded: number[] = [];
  for (let trial = 0; trial < options.trials; trial++) {
    const site = VisitorSketch.empty(SITE);
    const goal = VisitorSketch.empty(GOAL);
    let converting = 0;
    for (let i = 0; i < visitors; i++) {
      const hash = splitmix64(trial * 7919 + visitors, i);
      site.add(hash);
      // Whether a visitor converts comes from another hash of it, independent of its registers.
      if (splitmix64(trial + 1_000_003, i).hi / 2 ** 32 < rate) {
        goal.add(hash);
        converting += 1;
      }
    }
    const exact = converting / visitors;
    atSite.push(goal.estimate() / site.estimate() - exact);
    folded.push(goal.estimate() / site.fold(GOAL).estimate() - exact);
  }
  const a = points(atSite);
  const f = points(folded);
  console.log(
    `| ${visitors.toLocaleString('en-US')} | ${(rate * 100).toFixed(0)} % | ${a.rms.toFixed(3)} | ${a.worst.toFixed(3)} | ${f.rms.toFixed(3)} | ${f.worst.toFixed(3)} |`,
  );
}
