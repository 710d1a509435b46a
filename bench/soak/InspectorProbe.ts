/**
 * The server's heap after a full garbage collection, read through the V8 inspector: the server under test is started
 * with `--inspect=127.0.0.1:<port>` (loopback only), and each reading asks for a full GC (HeapProfiler.collectGarbage)
 * and then for process.memoryUsage(). No debug route in tally itself; works for any build. The collection pauses
 * the server for as long as a full GC takes (tens of milliseconds at 100 MB), once per sample: it is in the
 * latencies of that minute.
 */
import WebSocket from 'ws';

export interface MemoryReading {
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly rss: number;
  readonly external: number;
}

export class InspectorProbe {
  private nextId = 1;
  private readonly pending = new Map<number, (result: unknown) => void>();

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
          return new InspectorProbe(socket);
        }
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`no inspector on port ${port}: ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async memoryAfterGc(): Promise<MemoryReading> {
    await this.call('HeapProfiler.collectGarbage');
    const result = (await this.call('Runtime.evaluate', {
      expression: 'JSON.stringify(process.memoryUsage())',
      returnByValue: true,
    })) as { result?: { value?: string } };
    return JSON.parse(result.result?.value ?? '{}') as MemoryReading;
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
