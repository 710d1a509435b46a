/**
 * Streams of distinct visitors into sketches, for measuring estimate error against the exact count: the visitor
 * sketch (src/domain/visitors) or any other candidate, fed splitmix64 hashes (the stand-in for keyed visitor hashes)
 * and read at checkpoints. Shared by the sketch probe and the benchmark's accuracy section.
 */
import type { Hash64 } from '../../src/domain/visitors/Hash64';
import { relativeStandardError } from '../../src/domain/visitors/relativeStandardError';
import { splitmix64 } from '../../src/domain/visitors/splitmix64';
import { VisitorSketch } from '../../src/domain/visitors/VisitorSketch';

/** Something that counts distinct hashes and can say what a document would store. */
export interface Candidate {
  readonly name: string;
  /** Relative standard error the candidate promises at large counts. */
  readonly standardError: number;
  add(hash: Hash64): void;
  estimate(): number;
  storedFields(): Record<string, number>;
}

export type CandidateFactory = () => Candidate;

/** tally's visitor sketch at `precision` (2^precision registers), named `$bit <label> p=<precision>`. */
export function wordSketch(label: string, precision: number): CandidateFactory {
  return () => {
    const sketch = VisitorSketch.empty(precision);
    return {
      name: `$bit ${label} p=${precision}`,
      standardError: relativeStandardError(precision),
      add: (hash) => sketch.add(hash),
      estimate: () => sketch.estimate(),
      storedFields: () => sketch.toStoredFields(),
    };
  };
}

/**
 * errors[candidate][checkpoint] = estimate − n, one entry per stream: `streams` streams of distinct hashes (stream
 * s uses seed seedBase + s), each read at every cardinality of the ascending list `cardinalities`.
 */
export function streamErrors(
  factories: readonly CandidateFactory[],
  cardinalities: readonly number[],
  streams: number,
  seedBase: number,
): number[][][] {
  const errors = factories.map(() => cardinalities.map(() => [] as number[]));
  const last = cardinalities[cardinalities.length - 1] as number;
  for (let stream = 0; stream < streams; stream++) {
    const candidates = factories.map((factory) => factory());
    let checkpoint = 0;
    for (let n = 1; n <= last; n++) {
      const hash = splitmix64(seedBase + stream, n);
      for (const candidate of candidates) candidate.add(hash);
      if (n === cardinalities[checkpoint]) {
        candidates.forEach((candidate, i) => errors[i]?.[checkpoint]?.push(candidate.estimate() - n));
        checkpoint++;
      }
    }
  }
  return errors;
}

/** Nearest-rank quantile (q in [0, 1]) of an unsorted sample. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}
