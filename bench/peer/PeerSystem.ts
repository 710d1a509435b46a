/**
 * One system under the peer benchmark (tally, GoatCounter), started fresh in its own data directory: it is sent
 * batches, says how many hits it has counted so far, answers the equivalent queries, and reports the CPU of every
 * process it runs and the bytes it keeps on disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Counting, DayRange, PeerAnswer, PeerQuery } from './peerQueries';
import type { PeerHit } from './peerTraffic';

export interface PeerSystem {
  /** "tally (FerretDB 1.24.2 patched, embedded)", "GoatCounter v2.7.0 (SQLite)". */
  readonly label: string;
  readonly counting: Counting;
  /** Serialized before the clock starts, so the load generator's JSON is not timed. */
  batchBody(batch: readonly PeerHit[]): string;
  /** Sends one serialized batch; resolves once it is acknowledged, throws when it is refused. */
  send(body: string): Promise<void>;
  /** What the system answers as its total over `range` now: hits for tally, first visits for GoatCounter. */
  counted(range: DayRange): Promise<number>;
  /** Whether everything counted is readable from every query (absent: as soon as it is counted). */
  settled?(): Promise<boolean>;
  answer(query: PeerQuery): Promise<PeerAnswer>;
  /** CPU seconds of every process of the system so far. */
  cpuSeconds(): number | undefined;
  /** CPU seconds of the server process alone (tally without its database; GoatCounter is one process). */
  serverCpuSeconds(): number | undefined;
  diskBytes(): number;
  /** Stops the system cleanly and keeps its files (its disk is then what it stores, without write-ahead logs). */
  halt(): Promise<void>;
  /** Stops it and removes its files. */
  stop(): Promise<void>;
}

/** Bytes the files under `dir` occupy (allocated blocks, as `du` counts them). */
export function directoryBytes(dir: string): number {
  let sum = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) sum += directoryBytes(file);
    else if (entry.isFile()) sum += fs.statSync(file).blocks * 512;
  }
  return sum;
}
