/** The database server's CPU comes from the kernel's counters of its process (Linux), or is unknown. */
import { processCpuSeconds } from '../../../../bench/shared/processCpu';

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
});
