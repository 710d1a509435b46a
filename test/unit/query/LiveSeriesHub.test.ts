import { createLogger } from '../../../src/logging/createLogger';
import { LiveSeriesHub } from '../../../src/query/LiveSeriesHub';
import type { SeriesReader } from '../../../src/query/SeriesReader';
import type { SeriesDocumentRange } from '../../../src/store/SeriesDocumentRange';
import type { SecondStatsDocument } from '../../../src/store/secondStats';
import { Granularity } from '../../../src/time/Granularity';

const ms = (iso: string): number => Date.parse(iso);
const NOW = ms('2026-11-21T12:00:00.500Z');

/** An in-memory reader over second-level documents that counts its finds. */
function memoryReader(docs: SecondStatsDocument[]) {
  const finds: SeriesDocumentRange[][] = [];
  const reader: SeriesReader = {
    findDaily: async () => [],
    findMonthly: async () => [],
    findSeconds: async (ranges) => {
      finds.push([...ranges]);
      return docs.filter((d) =>
        ranges.some(
          (r) =>
            r.site === d.metadata.site &&
            r.page === d.metadata.page &&
            d.metadata.date.getTime() >= r.first &&
            d.metadata.date.getTime() <= r.last,
        ),
      );
    },
  };
  return { reader, finds };
}

const doc = (page: string, seconds: Record<string, number>): SecondStatsDocument => ({
  _id: `202611211200/s${page}`,
  metadata: { date: new Date('2026-11-21T12:00:00Z'), site: 's', page },
  seconds,
});

function hub(reader: SeriesReader): LiveSeriesHub {
  // A long interval: the tests drive poll() themselves.
  return new LiveSeriesHub(reader, {
    clock: () => NOW,
    logger: createLogger({ level: 'silent', nodeEnv: 'test' }),
    intervalMs: 3_600_000,
  });
}

const spec = (page: string) => ({ site: 's', page, granularity: Granularity.SECOND as const, windowMs: 2_000 });

describe('LiveSeriesHub', () => {
  it('reads every watched series with one find per poll and shares results between subscribers', async () => {
    const docs = [doc('/a', { '0': 1 }), doc('/b', { '0': 2 })];
    const { reader, finds } = memoryReader(docs);
    const live = hub(reader);
    const a1 = live.watch(spec('/a'));
    // The first watch polls at once.
    expect((await a1.next()).value?.total).toBe(1);
    expect(finds).toHaveLength(1);
    // Later subscribers get their snapshot at the next poll, which reads both series with one find.
    const a2 = live.watch(spec('/a'));
    const b = live.watch(spec('/b'));
    expect(live.watchedSeries).toBe(2);
    await live.poll();
    const snapshots = await Promise.all([a2.next(), b.next()]);
    expect(snapshots.map((s) => [s.value?.snapshot, s.value?.total])).toEqual([
      [true, 1],
      [true, 2],
    ]);
    expect(finds).toHaveLength(2);
    expect(finds[1]).toHaveLength(2);

    docs[0]!.seconds = { '0': 5 };
    await live.poll();
    expect(finds).toHaveLength(3);
    const [u1, u2] = await Promise.all([a1.next(), a2.next()]);
    expect(u1.value?.points).toEqual([{ t: ms('2026-11-21T12:00:00Z'), hits: 5 }]);
    expect(u2.value?.points).toEqual(u1.value?.points);
    live.close();
  });

  it('stops polling when the last subscriber leaves', async () => {
    const { reader, finds } = memoryReader([]);
    const live = hub(reader);
    const a = live.watch(spec('/a'));
    await a.next();
    await a.return?.();
    expect(live.watchedSeries).toBe(0);
    await live.poll();
    expect(finds).toHaveLength(1);
    live.close();
  });

  describe('on its interval (fake timers)', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    const ticking = (reader: SeriesReader) =>
      new LiveSeriesHub(reader, {
        clock: () => NOW,
        logger: createLogger({ level: 'silent', nodeEnv: 'test' }),
        intervalMs: 1_000,
      });

    it('polls at once on the first watch, then once per interval, and stops with the last subscriber', async () => {
      const { reader, finds } = memoryReader([doc('/a', { '0': 1 })]);
      const live = ticking(reader);
      // Timers are counted with nothing due (reads schedule immediates of their own): the interval is one.
      await jest.advanceTimersByTimeAsync(0);
      const timers = jest.getTimerCount();
      const a = live.watch(spec('/a'));
      await jest.advanceTimersByTimeAsync(0);
      expect(jest.getTimerCount()).toBe(timers + 1);
      expect(finds).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(999);
      expect(finds).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(finds).toHaveLength(2);
      await jest.advanceTimersByTimeAsync(3_000);
      expect(finds).toHaveLength(5);
      await a.return?.();
      await jest.advanceTimersByTimeAsync(0);
      expect(jest.getTimerCount()).toBe(timers);
      await jest.advanceTimersByTimeAsync(10_000);
      expect(finds).toHaveLength(5);
      live.close();
    });

    it('skips the ticks that come while a poll is still reading', async () => {
      const { reader, finds } = memoryReader([]);
      const release: Array<() => void> = [];
      const slow: SeriesReader = {
        ...reader,
        findSeconds: async (ranges) => {
          await new Promise<void>((resolve) => release.push(resolve));
          return reader.findSeconds(ranges);
        },
      };
      const live = ticking(slow);
      live.watch(spec('/a'));
      await jest.advanceTimersByTimeAsync(3_500);
      // One read started at the first watch and is still waiting; the three ticks since found it busy.
      expect(release).toHaveLength(1);
      release.splice(0).forEach((resume) => resume());
      await jest.advanceTimersByTimeAsync(500);
      expect(release).toHaveLength(1);
      release.splice(0).forEach((resume) => resume());
      await jest.advanceTimersByTimeAsync(0);
      expect(finds).toHaveLength(2);
      live.close();
    });
  });

  it('ends every subscription on close', async () => {
    const { reader } = memoryReader([]);
    const live = hub(reader);
    const a = live.watch(spec('/a'));
    await a.next();
    const waiting = a.next();
    live.close();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect((await live.watch(spec('/b')).next()).done).toBe(true);
  });
});
