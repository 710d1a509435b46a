/**
 * Probe: how well the visitor sketch (src/domain/visitors) counts, what it costs to store and to merge, beside plain
 * `$max` HyperLogLog registers read with Ertl's improved estimator (2017). Prints tables, asserts nothing.
 *   npx tsc -p tsconfig.build.json && node dist/bench/probes/sketchAccuracy.js
 *     [--seeds 40] [--small-seeds 2000] [--trials 200000] [--only all|sizes|merge|exactness|switch|accuracy] [--help]
 */
import { performance } from 'node:perf_hooks';
import { BSON } from 'mongodb';
import { ladderMaximumLikelihood } from '../../src/domain/visitors/ladderMaximumLikelihood';
import { registerKey } from '../../src/domain/visitors/registerKey';
import { rungCounts } from '../../src/domain/visitors/rungCounts';
import { sparseVisitorCount } from '../../src/domain/visitors/sparseVisitorCount';
import { splitmix64 } from '../../src/domain/visitors/splitmix64';
import { VISITOR_PRECISION } from '../../src/domain/visitors/VisitorPrecision';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';
import { parseOptions } from '../shared/options';
import { quantile, streamErrors, wordSketch } from '../shared/sketchStreams';
import type { CandidateFactory } from '../shared/sketchStreams';

const options = parseOptions(process.argv.slice(2), {
  seeds: { kind: 'integer', default: 40 },
  'small-seeds': { kind: 'integer', default: 2000 },
  trials: { kind: 'integer', default: 200_000 },
  only: { kind: 'choice', choices: ['all', 'sizes', 'merge', 'exactness', 'switch', 'accuracy'], default: 'all' },
});
const LARGE_SEEDS = options.seeds;
const SMALL_SEEDS = options['small-seeds'];
const TRIALS = options.trials;
const section = (name: string): boolean => options.only === 'all' || options.only === name;

const LARGE = [2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000];
const SMALL = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000];

/** Plain HyperLogLog: register = low p bits, value = 1 + leading zeros of the 48 bits above bit 16 (max 49). */
function maxRankSketch(precision: number): CandidateFactory {
  return () => {
    const m = 2 ** precision;
    const ranks = new Uint8Array(m);
    return {
      name: `$max HLL p=${precision}`,
      standardError: 1.04 / Math.sqrt(m),
      add: (hash) => {
        const high = hash.hi === 0 ? 32 + Math.clz32(hash.lo >>> 16) - 16 : Math.clz32(hash.hi);
        const rank = Math.min(high, 48) + 1;
        const register = hash.lo & (m - 1);
        if (rank > (ranks[register] as number)) ranks[register] = rank;
      },
      estimate: () => ertlImprovedEstimate(ranks, 48),
      storedFields: () => {
        const fields: Record<string, number> = {};
        ranks.forEach((rank, register) => {
          if (rank !== 0) fields[registerKey(register)] = rank;
        });
        return fields;
      },
    };
  };
}

/** Ertl (2017), "New cardinality estimation algorithms for HyperLogLog sketches", the improved raw estimator. */
function ertlImprovedEstimate(ranks: Uint8Array, q: number): number {
  const m = ranks.length;
  const histogram = new Float64Array(q + 2);
  for (const rank of ranks) histogram[rank] += 1;
  let z = m * tau(1 - (histogram[q + 1] as number) / m);
  for (let k = q; k >= 1; k--) z = 0.5 * (z + (histogram[k] as number));
  z += m * sigma((histogram[0] as number) / m);
  return (m * m) / (2 * Math.LN2 * z);
}

function sigma(x: number): number {
  if (x === 1) return Number.POSITIVE_INFINITY;
  let y = 1;
  let power = x;
  let sum = x;
  for (;;) {
    power *= power;
    const previous = sum;
    sum += power * y;
    y += y;
    if (sum === previous) return sum;
  }
}

function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let root = x;
  let sum = 1 - x;
  for (;;) {
    root = Math.sqrt(root);
    const previous = sum;
    y *= 0.5;
    sum -= (1 - root) ** 2 * y;
    if (sum === previous) return sum / 3;
  }
}

const CHOSEN: CandidateFactory[] = [
  wordSketch('minute', VISITOR_PRECISION.minute),
  wordSketch('page', VISITOR_PRECISION.pageDay),
  wordSketch('site', VISITOR_PRECISION.siteDay),
];
const ALTERNATIVES: CandidateFactory[] = [
  wordSketch('page', 12),
  maxRankSketch(11),
  maxRankSketch(12),
  maxRankSketch(13),
  maxRankSketch(14),
];
const ALL = [...CHOSEN, ...ALTERNATIVES];

const percent = (x: number): string => `${(100 * x).toFixed(2)}%`;
const pad = (cells: (string | number)[], widths: number[]): string =>
  cells.map((cell, i) => String(cell).padStart(widths[i] ?? 10)).join(' ');

function printAccuracy(): void {
  console.log(`\n## Accuracy: |estimate − n| / n over ${LARGE_SEEDS} streams to 1,000,000 and ${SMALL_SEEDS} to 1,000`);
  console.log('   (splitmix64 hashes; "max/SE" is the worst error in standard errors of the precision, ">3 SE" how');
  console.log('    many streams missed by more than 3 standard errors;');
  console.log('    "within ±1" and "worst ±" count visitors, for n ≤ 1,000)');
  const small = streamErrors(ALL, SMALL, SMALL_SEEDS, 1_000_000);
  const large = streamErrors(ALL, LARGE, LARGE_SEEDS, 2_000_000);
  const widths = [24, 10, 9, 9, 9, 7, 8, 10, 8];
  ALL.forEach((factory, i) => {
    const probe = factory();
    console.log(`\n${probe.name}  (SE ${percent(probe.standardError)})`);
    console.log(pad(['n', 'median', 'p99', 'max', 'bias', 'max/SE', '>3 SE', 'within ±1', 'worst ±'], widths));
    const rows: [number, number[]][] = [
      ...SMALL.map((n, j): [number, number[]] => [n, small[i]?.[j] ?? []]),
      ...LARGE.map((n, j): [number, number[]] => [n, large[i]?.[j] ?? []]),
    ];
    for (const [n, deltas] of rows) {
      const relative = deltas.map((delta) => Math.abs(delta) / n);
      const worst = Math.max(...relative);
      const bias = deltas.reduce((sum, delta) => sum + delta, 0) / deltas.length / n;
      const smallCells =
        n <= 1_000
          ? [
              percent(deltas.filter((delta) => Math.abs(delta) <= 1).length / deltas.length),
              Math.max(...deltas.map((delta) => Math.abs(delta))).toFixed(2),
            ]
          : ['', ''];
      console.log(
        pad(
          [
            n.toLocaleString('en'),
            percent(quantile(relative, 0.5)),
            percent(quantile(relative, 0.99)),
            percent(worst),
            percent(bias),
            (worst / probe.standardError).toFixed(2),
            relative.filter((error) => error > 3 * probe.standardError).length,
            ...smallCells,
          ],
          widths,
        ),
      );
    }
  });
}

function printExactness(): void {
  console.log(`\n## Small counts: share of sketches of exactly n visitors whose estimate is off by more than 1`);
  const cases: [CandidateFactory, number, number][] = [
    [wordSketch('page', VISITOR_PRECISION.pageDay), 100, TRIALS],
    [wordSketch('page', VISITOR_PRECISION.pageDay), 50, TRIALS],
    [wordSketch('site', VISITOR_PRECISION.siteDay), 100, TRIALS],
    [wordSketch('page', 12), 100, TRIALS],
    [wordSketch('minute', VISITOR_PRECISION.minute), 100, TRIALS / 10],
    [wordSketch('minute', VISITOR_PRECISION.minute), 20, TRIALS / 10],
    [maxRankSketch(12), 100, TRIALS / 10],
    [maxRankSketch(14), 100, TRIALS / 10],
  ];
  const widths = [24, 6, 9, 11, 12];
  console.log(pad(['sketch', 'n', 'trials', 'off by > 1', 'share'], widths));
  let seed = 3_000_000;
  for (const [factory, n, trials] of cases) {
    let off = 0;
    let name = '';
    for (let trial = 0; trial < trials; trial++) {
      const candidate = factory();
      name = candidate.name;
      seed++;
      for (let i = 0; i < n; i++) candidate.add(splitmix64(seed, i));
      if (Math.abs(candidate.estimate() - n) > 1) off++;
    }
    console.log(pad([name, n, trials.toLocaleString('en'), off, (off / trials).toExponential(1)], widths));
  }
}

/** Why the estimate switches from the sparse count to the ladder's likelihood at m/8 (SPARSE_LOAD_LIMIT). */
function printSwitch(): void {
  const precision = VISITOR_PRECISION.pageDay;
  const m = 2 ** precision;
  const loads = [1 / 64, 1 / 32, 1 / 16, 1 / 8, 1 / 4, 1 / 2, 1];
  const streams = SMALL_SEEDS / 4;
  console.log(`\n## Sparse count or ladder likelihood: error in visitors at p=${precision} over ${streams} streams`);
  const widths = [12, 8, 14, 14, 14, 14];
  console.log(pad(['load n/m', 'n', 'sparse bias', 'sparse rms', 'ladder bias', 'ladder rms'], widths));
  const sparse = loads.map(() => [] as number[]);
  const ladder = loads.map(() => [] as number[]);
  for (let stream = 0; stream < streams; stream++) {
    const sketch = VisitorSketch.empty(precision);
    let next = 0;
    for (let n = 1; next < loads.length; n++) {
      sketch.add(splitmix64(9_000_000 + stream, n));
      if (n !== Math.round((loads[next] as number) * m)) continue;
      sparse[next]?.push(sparseVisitorCount(sketch.words) - n);
      ladder[next]?.push(ladderMaximumLikelihood(rungCounts(sketch.words), m) - n);
      next++;
    }
  }
  const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
  const rms = (values: number[]): number => Math.sqrt(mean(values.map((value) => value * value)));
  loads.forEach((load, i) => {
    const s = sparse[i] ?? [];
    const l = ladder[i] ?? [];
    const cells = [mean(s), rms(s), mean(l), rms(l)].map((value) => value.toFixed(2));
    console.log(pad([`1/${Math.round(1 / load)}`, Math.round(load * m), ...cells], widths));
  });
}

function bsonGrowth(fields: Record<string, number>): number {
  return BSON.calculateObjectSize({ v: fields }) - BSON.calculateObjectSize({});
}

function printSizes(): void {
  console.log('\n## Stored size: bytes a document grows by with the sketch under a one-letter field ("v")');
  const widths = [24, 10, 10, 12, 14];
  console.log(pad(['sketch', '10', '1,000', '1,000,000', 'registers set'], widths));
  for (const factory of ALL) {
    const candidate = factory();
    const sizes: number[] = [];
    let registersSet = 0;
    for (let n = 1; n <= 1_000_000; n++) {
      candidate.add(splitmix64(4_000_000, n));
      if (n === 10 || n === 1_000 || n === 1_000_000) {
        const fields = candidate.storedFields();
        sizes.push(bsonGrowth(fields));
        registersSet = Object.keys(fields).length;
      }
    }
    console.log(pad([candidate.name, ...sizes.map((size) => size.toLocaleString('en')), registersSet], widths));
  }
}

/** Serialized documents `{ v: <sketch> }`, each from `visitors` distinct hashes. */
function storedDocuments(precision: number, count: number, visitors: number, seedBase: number): Buffer[] {
  return Array.from({ length: count }, (_, i) => {
    const sketch = VisitorSketch.empty(precision);
    for (let n = 0; n < visitors; n++) sketch.add(splitmix64(seedBase + i, n));
    return Buffer.from(BSON.serialize({ v: sketch.toStoredFields() }));
  });
}

interface MergeTiming {
  readonly decode: number;
  readonly read: number;
  readonly merge: number;
  readonly estimate: number;
}

/** One query: for each of `series` series, decode its documents, read their sketches, merge them, estimate. */
function timeMerge(documents: Buffer[], precision: number, series: number, groupSize: number): MergeTiming {
  const timing = { decode: 0, read: 0, merge: 0, estimate: 0 };
  for (let s = 0; s < series; s++) {
    for (let start = 0; start < documents.length; start += groupSize) {
      const group = documents.slice(start, start + groupSize);
      let t = performance.now();
      const decoded = group.map((buffer) => BSON.deserialize(buffer) as { v?: Record<string, unknown> });
      timing.decode += performance.now() - t;
      t = performance.now();
      const sketches = decoded.map((document) => VisitorSketch.fromStoredFields(document.v, precision));
      timing.read += performance.now() - t;
      t = performance.now();
      const union = VisitorSketch.empty(precision);
      for (const sketch of sketches) union.merge(sketch);
      timing.merge += performance.now() - t;
      t = performance.now();
      union.estimate();
      timing.estimate += performance.now() - t;
    }
  }
  return timing;
}

function medianTiming(runs: MergeTiming[]): MergeTiming {
  const middle = (pick: (timing: MergeTiming) => number): number =>
    quantile(
      runs.map((run) => pick(run)),
      0.5,
    );
  return {
    decode: middle((t) => t.decode),
    read: middle((t) => t.read),
    merge: middle((t) => t.merge),
    estimate: middle((t) => t.estimate),
  };
}

function printMergeCost(): void {
  console.log('\n## Merge cost: CPU ms per query (median of 7 runs, after 2 warm-ups), saturated sketches');
  const widths = [44, 10, 14, 9, 10, 9, 10];
  console.log(pad(['query', 'MB read', 'BSON decode', 'read', 'merge', 'estimate', 'total'], widths));
  const cases: [string, number, Buffer[], number, number][] = [
    [
      '20 page series × (3 months + 30 days)',
      VISITOR_PRECISION.pageDay,
      storedDocuments(VISITOR_PRECISION.pageDay, 33, 100_000, 5_000_000),
      20,
      33,
    ],
    [
      '20 page series × 90 days',
      VISITOR_PRECISION.pageDay,
      storedDocuments(VISITOR_PRECISION.pageDay, 90, 50_000, 6_000_000),
      20,
      90,
    ],
    [
      '20 site series × (3 months + 30 days)',
      VISITOR_PRECISION.siteDay,
      storedDocuments(VISITOR_PRECISION.siteDay, 33, 300_000, 7_000_000),
      20,
      33,
    ],
    [
      '1 series, 48 h by hour (48 × 60 minutes)',
      VISITOR_PRECISION.minute,
      storedDocuments(VISITOR_PRECISION.minute, 2_880, 3_000, 8_000_000),
      1,
      60,
    ],
    [
      '1 series, last 48 h as one count (2,880 minutes)',
      VISITOR_PRECISION.minute,
      storedDocuments(VISITOR_PRECISION.minute, 2_880, 3_000, 8_000_000),
      1,
      2_880,
    ],
  ];
  for (const [label, precision, documents, series, groupSize] of cases) {
    const runs: MergeTiming[] = [];
    for (let run = 0; run < 9; run++) {
      const timing = timeMerge(documents, precision, series, groupSize);
      if (run >= 2) runs.push(timing);
    }
    const timing = medianTiming(runs);
    const bytes = series * documents.reduce((sum, buffer) => sum + buffer.length, 0);
    const total = timing.decode + timing.read + timing.merge + timing.estimate;
    console.log(
      pad(
        [
          label,
          (bytes / 1e6).toFixed(1),
          timing.decode.toFixed(1),
          timing.read.toFixed(1),
          timing.merge.toFixed(1),
          timing.estimate.toFixed(1),
          total.toFixed(1),
        ],
        widths,
      ),
    );
  }
}

console.log('# Visitor sketch probe');
console.log(
  `precisions: minute ${VISITOR_PRECISION.minute}, page day/month ${VISITOR_PRECISION.pageDay}/` +
    `${VISITOR_PRECISION.pageMonth}, site day/month ${VISITOR_PRECISION.siteDay}/${VISITOR_PRECISION.siteMonth}`,
);
if (section('sizes')) printSizes();
if (section('merge')) printMergeCost();
if (section('exactness')) printExactness();
if (section('switch')) printSwitch();
if (section('accuracy')) printAccuracy();
