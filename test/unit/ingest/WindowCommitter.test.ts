import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hit } from '../../../src/domain/Hit';
import { WindowCommitter } from '../../../src/ingest/WindowCommitter';
import { createLogger } from '../../../src/logging/createLogger';
import { CounterBatch } from '../../../src/store/CounterBatch';
import type { FlushMark } from '../../../src/store/FlushMark';

const logger = createLogger({ level: 'silent', nodeEnv: 'test' });
const AT = Date.parse('2026-02-28T23:59:00Z');
const hit = (page: string, count = 1): Hit => ({ site: 's', page, at: AT, count, visitor: { hi: 7, lo: 9 } });

interface Written {
  readonly seq: number;
  readonly lane: string;
  readonly hits: number;
  readonly documents: number;
}

/** A database stand-in: records each window's mark and size; `failures` refuses that many writes first. */
function recordingWriter(failures = 0) {
  const written: Written[] = [];
  let refuse = failures;
  const write = async (batch: CounterBatch, mark: FlushMark): Promise<void> => {
    if (refuse-- > 0) throw new Error('database unavailable');
    written.push({ seq: mark.mark.seq, lane: mark.mark.lane, hits: batch.hits, documents: batch.documents });
  };
  return { written, write };
}

/**
 * File-system work is real; only the timers are fake. Lets real I/O finish and the fake clock run until `done()`,
 * `stepMs` at a time (0: the clock stands still, and only what is due now runs).
 */
async function until(done: () => boolean, what: string, stepMs = 100): Promise<void> {
  // A deadline in real time: fsync on a loaded machine can take long, and that must not fail the test.
  const deadline = process.hrtime.bigint() + 30_000_000_000n;
  while (process.hrtime.bigint() < deadline) {
    if (done()) return;
    await new Promise((resolve) => setImmediate(resolve));
    await jest.advanceTimersByTimeAsync(stepMs);
  }
  throw new Error(`waited in vain for ${what}`);
}

function open(
  dir: string,
  write: (batch: CounterBatch, mark: FlushMark) => Promise<void>,
  maxWriteDocuments = 2_000,
  idleMs = 0,
  prebuild?: (batch: CounterBatch, mark: FlushMark) => void,
) {
  return WindowCommitter.open({
    dir,
    windowMs: 2_000,
    idleMs,
    maxWriteDocuments,
    newBatch: () => new CounterBatch({ siteTotals: true }),
    write,
    prebuild,
    logger,
    retryDelaysMs: [1_000],
  });
}

beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask', 'hrtime'] }));
afterEach(() => jest.useRealTimers());

describe('WindowCommitter', () => {
  it('acknowledges from the log and writes each window once, under consecutive seqs of one lane', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-windows-'));
    const { written, write } = recordingWriter();
    const windows = await open(dir, write);
    await Promise.all([windows.submit([hit('/a')]), windows.submit([hit('/a'), hit('/b')])]);
    // Acknowledged, and nothing written before the window closes.
    expect(written).toEqual([]);
    await jest.advanceTimersByTimeAsync(2_000);
    await until(() => written.length === 1, 'the first window');
    await windows.submit([hit('/c')]);
    await jest.advanceTimersByTimeAsync(2_000);
    await until(() => written.length === 2, 'the second window');
    expect(written.map((w) => [w.seq, w.hits])).toEqual([
      [1, 3],
      [2, 1],
    ]);
    expect(written[1]?.lane).toBe(written[0]?.lane);
    await windows.close();
  });

  it('writes a window early once quiet for twice the gaps between its hits (up to idleMs), never under steady traffic', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-windows-'));
    const { written, write } = recordingWriter();
    const windows = await open(dir, write, 2_000, 500);
    // A hit every 300 ms never leaves the window quiet for 500 ms (twice the gap, capped at idleMs): it is written at
    // its end, whole. Only the first hit, before any gap was seen, went alone, a quarter of idleMs after it.
    for (let i = 0; i < 7; i++) {
      await windows.submit([hit('/a')]);
      await jest.advanceTimersByTimeAsync(300);
    }
    expect(written.map((w) => [w.seq, w.hits])).toEqual([[1, 1]]);
    await until(() => written.length === 2, 'the window at its end');
    expect(written.map((w) => [w.seq, w.hits])).toEqual([
      [1, 1],
      [2, 6],
    ]);
    await windows.drain();
    // Then hits 100 ms apart, and silence: written once it was quiet for twice their gap, not a window later.
    await jest.advanceTimersByTimeAsync(5_000);
    for (let i = 0; i < 3; i++) {
      await windows.submit([hit('/b')]);
      if (i < 2) await jest.advanceTimersByTimeAsync(100);
    }
    await jest.advanceTimersByTimeAsync(150);
    expect(written).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(100);
    await until(() => written.length === 3, 'the quiet window, 250 ms after its last hit', 0);
    expect(written[2]?.hits).toBe(3);
    await windows.close();
  });

  it('writes the window after a burst once quiet for a quarter of idleMs, the silence before the burst not counted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-windows-'));
    const { written, write } = recordingWriter();
    const windows = await open(dir, write, 2_000, 500);
    // Silence since the start, then a burst of records 10 ms apart.
    await jest.advanceTimersByTimeAsync(3_000);
    for (let i = 0; i < 5; i++) {
      await windows.submit([hit('/a')]);
      await jest.advanceTimersByTimeAsync(10);
    }
    await jest.advanceTimersByTimeAsync(50);
    expect(written).toEqual([]);
    await jest.advanceTimersByTimeAsync(100);
    await until(() => written.length === 1, 'the window, 160 ms after the burst', 0);
    expect(written[0]?.hits).toBe(5);
    await windows.close();
  });

  it("writes a large window in parts of at most maxWriteDocuments, every part under the window's mark", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-windows-'));
    const { written, write } = recordingWriter();
    const windows = await open(dir, write, 7);
    // 12 pages: 12 daily and 12 monthly page documents, plus the site's day and month: 26 documents.
    await windows.submit(Array.from({ length: 12 }, (_, i) => hit(`/p${i}`)));
    await windows.drain();
    expect(written.map((w) => w.documents)).toEqual([7, 7, 7, 5]);
    expect(new Set(written.map((w) => `${w.lane}:${w.seq}`))).toEqual(new Set([`${written[0]?.lane}:1`]));
    await windows.close();
  });

  it("prepares each next part while the one before it is with the database, under the window's mark", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-windows-'));
    const events: string[] = [];
    const parts = new Map<CounterBatch, number>();
    const name = (batch: CounterBatch) => parts.get(batch) ?? parts.set(batch, parts.size + 1).get(batch);
    const marks = new Set<string>();
    const write = async (batch: CounterBatch, mark: FlushMark): Promise<void> => {
      events.push(`write ${name(batch)}`);
      marks.add(JSON.stringify(mark));
      // The database's round trip: the loop goes on (timers, immediates) before the reply.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      events.push(`written ${name(batch)}`);
    };
    const prebuild = (batch: CounterBatch, mark: FlushMark): void => {
      events.push(`prebuild ${name(batch)}`);
      marks.add(JSON.stringify(mark));
    };
    const windows = await open(dir, write, 7, 0, prebuild);
    await windows.submit(Array.from({ length: 12 }, (_, i) => hit(`/p${i}`)));
    await windows.drain();
    expect(events).toEqual([
      'write 1',
      'prebuild 2',
      'written 1',
      'write 2',
      'prebuild 3',
      'written 2',
      'write 3',
      'prebuild 4',
      'written 3',
      'write 4',
      'written 4',
    ]);
    expect(marks.size).toBe(1);
    await windows.close();
  });

  it("spreads a window's parts over its share of the window while hits arrive, and goes back to back when late, drained or quiet", async () => {
    // Four parts of a 2-s window, each 100 ms with the database (the fake clock). The hits are logged at the start;
    // `quietMs` says how long after the last one hits still count as arriving (the fake clock may run on while the
    // seal's real I/O completes, so the cases do not hang on a few milliseconds either way).
    const pages = Array.from({ length: 12 }, (_, i) => hit(`/p${i}`));
    const run = async (
      spreadShare: number,
      quietMs: number,
      drive: (windows: WindowCommitter, starts: number[]) => Promise<void>,
    ) => {
      const starts: number[] = [];
      const windows = await WindowCommitter.open({
        dir: mkdtempSync(join(tmpdir(), 'tally-windows-')),
        windowMs: 2_000,
        maxWriteDocuments: 7,
        newBatch: () => new CounterBatch({ siteTotals: true }),
        write: async () => {
          starts.push(performance.now());
          await new Promise((resolve) => setTimeout(resolve, 100));
        },
        logger,
        spreadShare,
        quietMs,
      });
      await windows.submit(pages);
      await drive(windows, starts);
      expect(starts).toHaveLength(4);
      expect(windows.pendingWindows).toBe(0);
      await windows.close();
      return starts.slice(1).map((at, i) => at - (starts[i] as number));
    };
    const byTimer = async (windows: WindowCommitter, starts: number[]) => {
      await jest.advanceTimersByTimeAsync(2_000);
      await until(() => starts.length === 4 && windows.pendingWindows === 0, 'the window', 10);
    };
    const HITS_ARRIVING = 60_000;
    // A pause as long as the part before it, while the lane still ends within the share.
    expect(await run(1, HITS_ARRIVING, byTimer)).toEqual([200, 200, 200]);
    // 200 ms for four parts of 100 ms: no time to spare, no pause.
    expect(await run(0.1, HITS_ARRIVING, byTimer)).toEqual([100, 100, 100]);
    // No hit for the 2 s before the seal, over the 1-s default: nobody's request waits behind the parts.
    expect(await run(1, 1_000, byTimer)).toEqual([100, 100, 100]);
    // A drain wakes a pause and writes the rest back to back.
    const drainedInPause = await run(1, HITS_ARRIVING, async (windows, starts) => {
      await jest.advanceTimersByTimeAsync(2_000);
      await until(() => starts.length === 1, 'the first part', 0);
      await jest.advanceTimersByTimeAsync(150);
      const draining = windows.drain();
      await until(() => starts.length === 4, 'the other parts', 10);
      await jest.advanceTimersByTimeAsync(100);
      await draining;
    });
    expect(drainedInPause).toEqual([150, 100, 100]);
  });

  it('writes minute documents in a lane beside the others, both in one turn, every part under the mark', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-windows-'));
    const events: string[] = [];
    const marks = new Set<string>();
    const violations: string[] = [];
    let turns = 0;
    let inTurn = false;
    const write = async (batch: CounterBatch, mark: FlushMark): Promise<void> => {
      const lane = batch.seconds.size > 0 ? 'minutes' : 'others';
      // A part holds minute documents or none (the lanes never share a collection), and is written within the turn.
      if (lane === 'minutes' && batch.documents !== batch.seconds.size) violations.push('a mixed part');
      if (!inTurn) violations.push('a write outside the turn');
      marks.add(JSON.stringify(mark));
      events.push(`start ${lane}`);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      events.push(`end ${lane}`);
    };
    const windows = await WindowCommitter.open({
      dir,
      windowMs: 2_000,
      idleMs: 0,
      maxWriteDocuments: 7,
      // Every hit's minute counts (retention from the epoch).
      newBatch: () => new CounterBatch({ siteTotals: true, seconds: { now: 0, retentionMs: 0 } }),
      write,
      turn: async (task) => {
        turns += 1;
        inTurn = true;
        try {
          return await task();
        } finally {
          inTurn = false;
        }
      },
      logger,
      retryDelaysMs: [1_000],
    });
    // 12 pages: 26 day and month documents, 13 minute documents (the pages' and the site's).
    await windows.submit(Array.from({ length: 12 }, (_, i) => hit(`/p${i}`)));
    await windows.drain();
    // Both lanes' first parts are out before either is answered.
    expect(events.slice(0, 2).sort()).toEqual(['start minutes', 'start others']);
    expect(events.filter((e) => e === 'end minutes')).toHaveLength(2);
    expect(events.filter((e) => e === 'end others')).toHaveLength(4);
    expect(violations).toEqual([]);
    expect(turns).toBe(1);
    expect(marks.size).toBe(1);
    await windows.close();
  });

  it('halves a part the database keeps refusing (a write too large for its timeout) and grows parts back after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-windows-'));
    const written: number[] = [];
    const write = async (batch: CounterBatch): Promise<void> => {
      if (batch.documents > 70) throw new Error('timed out');
      written.push(batch.documents);
    };
    const windows = await open(dir, write, 200);
    // 60 pages: 60 daily and 60 monthly page documents, and the site's two: 122 documents.
    const pages = (n: number) => Array.from({ length: n }, (_, i) => hit(`/p${i}`));
    await windows.submit(pages(60));
    const draining = windows.drain();
    await until(() => written.length === 2, 'the halved parts');
    await draining;
    expect(written).toEqual([61, 61]);
    // The next window keeps the halved size; once one is written without a refusal, parts grow back.
    written.length = 0;
    await windows.submit(pages(30));
    await windows.drain();
    expect(written).toEqual([61, 1]);
    written.length = 0;
    await windows.submit(pages(30));
    await windows.drain();
    expect(written).toEqual([62]);
    await windows.close();
  });

  it('re-sends a refused window under the same mark until the database takes it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-windows-'));
    const { written, write } = recordingWriter(2);
    const windows = await open(dir, write);
    await windows.submit([hit('/a', 5)]);
    await jest.advanceTimersByTimeAsync(2_000);
    await until(() => written.length === 0 && windows.pendingWindows === 1, 'the sealed window');
    await jest.advanceTimersByTimeAsync(2_000);
    await until(() => written.length === 1, 'the third try');
    expect(written[0]).toMatchObject({ seq: 1, hits: 1 });
    await windows.close();
  });

  it('replays after a crash: sealed windows under their own seq and lane, the unsealed tail as the open window', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-windows-'));
    const { write: refuseAll } = recordingWriter(Number.POSITIVE_INFINITY);
    const crashed = await open(dir, refuseAll);
    await crashed.submit([hit('/a'), hit('/b')]);
    await jest.advanceTimersByTimeAsync(2_000);
    await until(() => crashed.pendingWindows === 1, 'the first window sealed');
    // The database never took window 1; window 2 is still open when the process dies (no close()).
    await crashed.submit([hit('/c')]);

    const { written, write } = recordingWriter();
    const restarted = await open(dir, write);
    await until(() => written.length === 1, 'the replayed window');
    expect(written[0]).toMatchObject({ seq: 1, hits: 2 });
    await restarted.drain();
    expect(written.map((w) => [w.seq, w.hits])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(new Set(written.map((w) => w.lane)).size).toBe(1);
    await restarted.close();

    // Everything flushed and checkpointed: a third start replays nothing.
    const { written: none, write: third } = recordingWriter();
    const again = await open(dir, third);
    await again.drain();
    expect(none).toEqual([]);
    await again.close();
  });
});
