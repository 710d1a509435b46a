/**
 * CPU time of another process (or a process tree) from the kernel's own counters (/proc/<pid>/stat, Linux): how the
 * benchmark charges the database server, or a peer system, for its share of a run. Elsewhere, or once the process
 * is gone, it is unknown.
 */
import fs from 'node:fs';

/** Linux reports utime and stime in clock ticks of USER_HZ, which is 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of `pid`, or undefined when the kernel does not tell. */
export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state(3) ppid(4) … utime(14) stime(15), so utime is index 11 here.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return undefined;
  return (utime + stime) / TICKS_PER_SECOND;
}

/**
 * User + system CPU seconds of `pid` and every process below it (e.g. tally and the FerretDB it started), from each
 * thread's /proc/<pid>/task/<tid>/children. A descendant that already exited is not counted unless its parent waited
 * for it; undefined when the root itself is unknown.
 */
export function processTreeCpuSeconds(pid: number | undefined): number | undefined {
  const own = processCpuSeconds(pid);
  if (pid === undefined || own === undefined) return undefined;
  return childrenOf(pid).reduce((sum, child) => sum + (processTreeCpuSeconds(child) ?? 0), own);
}

function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = new Set<number>();
  for (const task of tasks) {
    try {
      const listed = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
      for (const child of listed.split(' ')) if (child.trim() !== '') children.add(Number(child));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return [...children];
}
