import { TimeSlice } from '../../../src/time/TimeSlice';

describe('TimeSlice', () => {
  it('is due once its milliseconds have passed, asked per item, and starts again after a pause', async () => {
    let now = 1_000;
    const slice = new TimeSlice(10, () => now);
    const dueWithin = (calls: number): number => {
      for (let i = 1; i <= calls; i++) if (slice.due()) return i;
      return 0;
    };
    expect(dueWithin(64)).toBe(0);
    now += 10;
    // The clock is read every 16 calls: due at the next reading, not at once.
    expect(dueWithin(64)).toBe(16);
    expect(slice.due()).toBe(false);
    await slice.pause();
    expect(dueWithin(64)).toBe(0);
    now += 9;
    expect(dueWithin(64)).toBe(0);
    now += 1;
    expect(dueWithin(64)).toBeGreaterThan(0);
  });

  it('pauses for a turn of the event loop: callbacks queued meanwhile run first', async () => {
    const slice = new TimeSlice(0);
    const ran: string[] = [];
    setImmediate(() => ran.push('queued'));
    await slice.pause();
    ran.push('after the pause');
    expect(ran).toEqual(['queued', 'after the pause']);
  });
});
