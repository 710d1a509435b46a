/**
 * What happened in one sampling interval, as clients saw it: latencies of answered requests by kind (hits,
 * dashboards), errors by code, live-subscription messages. Latencies are kept whole for exact percentiles: at
 * 1,000 requests a second a minute is 60,000 numbers.
 */
import { percentile } from '../shared/stats';

export type RequestKind = 'hit' | 'dashboard';

export interface LatencyFigures {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
}

export class Window {
  readonly latencies: Record<RequestKind, number[]> = { hit: [], dashboard: [] };
  readonly errors = new Map<string, number>();
  /** recordHit requests due in this interval (sent or not). */
  due = 0;
  liveMessages = 0;

  constructor(readonly startedAt: number) {}

  answered(kind: RequestKind, ms: number): void {
    this.latencies[kind].push(ms);
  }

  failed(code: string): void {
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }

  get errorCount(): number {
    let n = 0;
    for (const count of this.errors.values()) n += count;
    return n;
  }

  figures(kind: RequestKind): LatencyFigures {
    const values = this.latencies[kind];
    let max = 0;
    for (const v of values) if (v > max) max = v;
    return {
      count: values.length,
      p50: percentile(values, 50),
      p99: percentile(values, 99),
      p999: percentile(values, 99.9),
      max,
    };
  }
}

/** Several windows as one (a whole ramp step, the whole soak). */
export function mergeWindows(windows: readonly Window[]): Window {
  const merged = new Window(windows[0]?.startedAt ?? Date.now());
  for (const w of windows) {
    // Loops, not push(...values): spreading a long array into a call overflows the stack.
    for (const v of w.latencies.hit) merged.latencies.hit.push(v);
    for (const v of w.latencies.dashboard) merged.latencies.dashboard.push(v);
    for (const [code, n] of w.errors) merged.errors.set(code, (merged.errors.get(code) ?? 0) + n);
    merged.due += w.due;
    merged.liveMessages += w.liveMessages;
  }
  return merged;
}
