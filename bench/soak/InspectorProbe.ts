/**
 * The server's live heap, read through the V8 inspector: the server under test is started with
 * `--inspect=127.0.0.1:<port>` (loopback only). No debug route in tally itself; works for any build.
 *
 * A reading is the heap outside the young generation as the server's own last major GC left it: an observer of GC
 * entries, installed through the inspector, notes it after each one. Forcing a collection instead
 * (HeapProfiler.collectGarbage, which collects until nothing more is freed) paused the server for 440–540 ms at
 * 1,000 recordHit/s, once per sample: the measurement alone put half a second into each sample's p99.9. Only when the
 * server ran no major GC since the last reading is one forced, and the reading says so.
 */
import WebSocket from 'ws';
import type { HeapProfile } from './heapSites';

export interface MemoryReading {
  /** Bytes live after the last major GC, outside the young generation. */
  readonly liveBytes: number;
  readonly rss: number;
  /** Whether this reading forced a full GC (and paused the server for it). */
  readonly forced: boolean;
}

/** Installs the observer once per server; evaluated in the server's global scope. */
const WATCH_MAJOR_GCS = `(() => {
  if (globalThis.__soakMajorGc) return true;
  const { PerformanceObserver, constants } = process.getBuiltinModule('perf_hooks');
  const v8 = process.getBuiltinModule('v8');
  const state = { majors: 0, liveBytes: 0 };
  state.note = () => {
    let live = 0;
    for (const space of v8.getHeapSpaceStatistics()) if (!space.space_name.startsWith('new_')) live += space.space_used_size;
    state.majors += 1;
    state.liveBytes = live;
  };
  new PerformanceObserver((list) => {
    if (list.getEntries().some((entry) => entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) state.note();
  }).observe({ entryTypes: ['gc'] });
  globalThis.__soakMajorGc = state;
  return true;
})()`;

const READ = `JSON.stringify({ majors: globalThis.__soakMajorGc.majors, liveBytes: globalThis.__soakMajorGc.liveBytes, rss: process.memoryUsage.rss() })`;

export class InspectorProbe {
  private nextId = 1;
  private readonly pending = new Map<number, (result: unknown) => void>();
  private majorsSeen = 0;

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: WebSocket.RawData) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
      if (message.id !== undefined) this.pending.get(message.id)?.(message.result);
    });
  }

  /** Connects to the inspector listening on `port` (the first target it lists). */
  static async connect(port: number): Promise<InspectorProbe> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
          webSocketDebuggerUrl: string;
        }>;
        const url = targets[0]?.webSocketDebuggerUrl;
        if (url) {
          const socket = new WebSocket(url);
          await new Promise<void>((resolve, reject) => {
            socket.once('open', () => resolve());
            socket.once('error', reject);
          });
          const probe = new InspectorProbe(socket);
          await probe.evaluate(WATCH_MAJOR_GCS);
          return probe;
        }
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`no inspector on port ${port}: ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async memoryAfterGc(): Promise<MemoryReading> {
    let read = JSON.parse(await this.evaluate(READ)) as { majors: number; liveBytes: number; rss: number };
    const forced = read.majors === this.majorsSeen;
    if (forced) {
      await this.call('HeapProfiler.collectGarbage');
      await this.evaluate('globalThis.__soakMajorGc.note()');
      read = JSON.parse(await this.evaluate(READ)) as typeof read;
    }
    this.majorsSeen = read.majors;
    return { liveBytes: read.liveBytes, rss: read.rss, forced };
  }

  /**
   * Starts V8's sampling heap profiler: one sample per `intervalBytes` allocated on average, kept while its object
   * lives. It never pauses the server as a heap snapshot does, but it slows it (a 1,000/s soak's p99 2–5×): it finds
   * what grows, not speed figures.
   */
  async startHeapSampling(intervalBytes: number): Promise<void> {
    await this.call('HeapProfiler.enable');
    await this.call('HeapProfiler.startSampling', { samplingInterval: intervalBytes });
  }

  /** The live heap by allocating stack, as sampled since startHeapSampling (heapSites reads it). */
  async heapSamplingProfile(): Promise<HeapProfile> {
    const answer = (await this.call('HeapProfiler.getSamplingProfile')) as { profile?: HeapProfile } | undefined;
    if (!answer?.profile) throw new Error('the inspector returned no sampling heap profile');
    return answer.profile;
  }

  private async evaluate(expression: string): Promise<string> {
    const answer = (await this.call('Runtime.evaluate', { expression, returnByValue: true })) as {
      result?: { value?: unknown };
      exceptionDetails?: { exception?: { description?: string } };
    };
    if (answer.exceptionDetails) {
      throw new Error(
        `the server's inspector refused: ${answer.exceptionDetails.exception?.description ?? 'an error'}`,
      );
    }
    return String(answer.result?.value);
  }

  close(): void {
    this.socket.close();
  }

  private call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the inspector did not answer ${method} within 30 s`));
      }, 30_000);
      this.pending.set(id, (result) => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve(result);
      });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }
}
