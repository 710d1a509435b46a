/**
 * Gives a child process a lower CPU priority (a higher nice value). With INGEST_ACK=log nobody waits on the embedded
 * database's writes: requests are answered from the log, and a window is written seconds later. When the machine is
 * busy the kernel should run tally's request thread first and the database with what is left (docs/design.md, "The
 * embedded database's priority").
 */
import fs from 'node:fs';
import os from 'node:os';

/** Nice values run from -20 (first) to 19 (last); 0 is the default every process starts with. */
export const MAX_NICENESS = 19;

/**
 * Sets `niceness` on every thread of `pid` that runs at a lower one, and returns how many it changed. On Linux a nice
 * value belongs to a thread, and a new thread takes its creator's: every thread that exists is changed, twice over to
 * catch one created meanwhile. Elsewhere it belongs to the process. A thread already nicer is left alone (an
 * operator's `renice`), and a failure (the process gone, a platform without nice values) leaves things as they were.
 */
export function lowerPriority(pid: number, niceness: number): number {
  let changed = 0;
  for (let pass = 0; pass < 2; pass += 1) {
    for (const thread of threadsOf(pid)) {
      try {
        if (os.getPriority(thread) >= niceness) continue;
        os.setPriority(thread, niceness);
        changed += 1;
      } catch {
        // The thread ended between the listing and the call.
      }
    }
  }
  return changed;
}

function threadsOf(pid: number): number[] {
  if (process.platform !== 'linux') return [pid];
  try {
    return fs.readdirSync(`/proc/${pid}/task`).map(Number);
  } catch {
    return [];
  }
}
