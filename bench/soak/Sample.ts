/** One sampling interval of a soak or ramp, as the report shows it (the JSON results hold these too). */
import type { LatencyFigures } from './Window';

export interface Sample {
  readonly phase: 'ramp' | 'soak';
  /** Minutes since the phase began, at the end of the interval. */
  readonly minute: number;
  /** The recordHit rate asked for, per second. */
  readonly rate: number;
  /** recordHit requests answered without error, per second. */
  readonly achieved: number;
  readonly hits: LatencyFigures;
  readonly dashboards: LatencyFigures;
  /** Client-side errors by code (GraphQL code, HTTP status, NO_ANSWER, CLIENT_BACKLOG, LIVE_ENDED). */
  readonly errors: Readonly<Record<string, number>>;
  readonly liveMessages: number;
  /** Live heap after the server's last major GC, outside the young generation (InspectorProbe). */
  readonly heapAfterGcMb: number;
  /** Whether the server ran no major GC in the interval, so the reading forced one (a pause in its latencies). */
  readonly heapGcForced: boolean;
  readonly rssMb: number;
  readonly eventLoopP99Ms: number;
  readonly eventLoopMaxMs: number;
  readonly documentCacheMb: number;
  /** Visit sessions the server remembers at the end of the interval: what visits hold in its heap. */
  readonly visitSessionsCached: number;
  /** Server-side, during the interval: SERVICE_UNAVAILABLE answers by cause, background steps over 1 s, flushes. */
  readonly unavailable: Readonly<Record<string, number>>;
  readonly backgroundStalls: number;
  readonly flushes: number;
}

/** One step of the ramp and whether the rate held (zero errors, p99 ≤ 1 s, ≥ 97 % of the rate answered). */
export interface RampStep {
  readonly rate: number;
  readonly achieved: number;
  readonly errors: number;
  readonly p99: number;
  readonly holds: boolean;
}
