/** What one `npm run bench` run does: its mode, where it writes, which database engines it runs. */
export type BenchMode = 'smoke' | 'quick' | 'full';

export interface BenchOptions {
  readonly mode: BenchMode;
  /** Where results/<timestamp>/ go. */
  readonly resultsDir: string;
  /** Where benchmarks.md and benchmarks/*.svg go. */
  readonly docsDir: string;
  /** Start the tally server as a child process (the benchmark proper) or in this process (smoke test only). */
  readonly server: 'child' | 'in-process';
  /** Run this FerretDB executable as the embedded database (default: the patched build from scripts/). */
  readonly ferretdbBinary?: string | undefined;
  /**
   * Also run the ingest section on a second embedded FerretDB, workload by workload beside the first:
   * `stock` builds (once) and runs the unpatched release, or a path to any FerretDB executable.
   */
  readonly compareFerretdb?: 'stock' | { readonly binary: string } | undefined;
  /** Hits per traffic shape of the GoatCounter side-by-side section (default: the mode's, see sizes.ts). */
  readonly peerHits?: number | undefined;
  /** Run only the sections whose title contains one of these (e.g. `idempotency`); all when absent. */
  readonly only?: readonly string[] | undefined;
}
