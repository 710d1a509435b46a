/** The database server's CPU comes from the kernel's counters of its process (Linux), or is unknown. */
import { spawn } from 'node:child_process';
import { processCpuSeconds, processTreeCpuSeconds } from '../../../../bench/shared/processCpu';

describe('processCpuSeconds', () => {
  const linux = process.platform === 'linux';

  (linux ? it : it.skip)('reads a running process (this one) as a non-negative number of seconds', () => {
    const seconds = processCpuSeconds(process.pid);
    expect(seconds).toBeGreaterThanOrEqual(0);
    // The kernel counts this process's CPU as Node does, to its 10 ms tick.
    const own = process.cpuUsage();
    expect(Math.abs((seconds as number) - (own.user + own.system) / 1e6)).toBeLessThan(1);
  });

  it('is unknown without a process id, or for a process that does not exist', () => {
    expect(processCpuSeconds(undefined)).toBeUndefined();
    expect(processCpuSeconds(2 ** 30)).toBeUndefined();
  });

  (linux ? it : it.skip)('adds the CPU of the processes a process started to its own', async () => {
    // A child that burns CPU until it is killed: its seconds must show in this process's tree, not in its own.
    const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
    try {
      const deadline = Date.now() + 20_000;
      while ((processCpuSeconds(child.pid) ?? 0) < 0.2 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const own = processCpuSeconds(process.pid) as number;
      const tree = processTreeCpuSeconds(process.pid) as number;
      const childs = processCpuSeconds(child.pid) as number;
      expect(childs).toBeGreaterThanOrEqual(0.2);
      expect(tree).toBeGreaterThanOrEqual(own + 0.2);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('is unknown for the tree of a process that does not exist', () => {
    expect(processTreeCpuSeconds(undefined)).toBeUndefined();
    expect(processTreeCpuSeconds(2 ** 30)).toBeUndefined();
  });
});
