/** The beacon's salt per period: read once per period and process, shared by concurrent callers, swept when over. */
import { VisitorSalts } from '../../../src/ingest/VisitorSalts';

const DAY = Date.parse('2026-03-10T12:00:00Z');

function store() {
  const salts = new Map<string, Uint8Array>();
  let next = 0;
  return {
    reads: [] as string[],
    failNext: false,
    async salt(period: string): Promise<Uint8Array> {
      this.reads.push(period);
      if (this.failNext) {
        this.failNext = false;
        throw new Error('the database is unavailable');
      }
      if (!salts.has(period)) salts.set(period, new Uint8Array([(next += 1)]));
      return salts.get(period) as Uint8Array;
    },
    deleteAllBut: jest.fn(async (_current: string) => 0),
  };
}

describe('VisitorSalts', () => {
  it('reads the period salt once, shares it with concurrent callers, and reads the next period anew', async () => {
    const backing = store();
    const salts = new VisitorSalts(backing, 'day');
    const [a, b] = await Promise.all([salts.saltFor(DAY), salts.saltFor(DAY + 1000)]);
    expect(a).toBe(b);
    expect(await salts.saltFor(DAY + 11 * 3_600_000)).toBe(a);
    expect(backing.reads).toEqual(['day:2026-03-10']);
    const tomorrow = await salts.saltFor(DAY + 12 * 3_600_000);
    expect(tomorrow).not.toEqual(a);
    expect(backing.reads).toEqual(['day:2026-03-10', 'day:2026-03-11']);
  });

  it('does not keep a failed read: the next hit asks again', async () => {
    const backing = store();
    backing.failNext = true;
    const salts = new VisitorSalts(backing, 'month');
    await expect(salts.saltFor(DAY)).rejects.toThrow('the database is unavailable');
    await expect(salts.saltFor(DAY)).resolves.toEqual(new Uint8Array([1]));
    expect(backing.reads).toEqual(['month:2026-03', 'month:2026-03']);
  });

  it('sweeps every salt but the current period one', async () => {
    const backing = store();
    await new VisitorSalts(backing, 'day').sweep(DAY);
    expect(backing.deleteAllBut).toHaveBeenCalledWith('day:2026-03-10');
  });
});
