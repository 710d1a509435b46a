/**
 * The server's own view, from its Prometheus /metrics, read once per sample: RSS, event-loop delay (prom-client
 * resets its event-loop histogram at every scrape, so each reading covers the interval since the last one),
 * SERVICE_UNAVAILABLE answers by cause, background steps over 1 s, flushes, and the document cache's heap.
 * Counters are cumulative; a Sample holds the differences between two readings.
 */
import type { SoakClient } from './SoakClient';

export interface MetricsReading {
  readonly rss: number;
  readonly eventLoopP99Ms: number;
  readonly eventLoopMaxMs: number;
  readonly unavailable: Readonly<Record<string, number>>;
  /** Background steps so far, and how many of them took longer than a second. */
  readonly backgroundSteps: number;
  readonly backgroundStalls: number;
  readonly flushes: number;
  readonly documentCacheBytes: number;
  /** Visit sessions the server remembers (0 from a server without the gauge). */
  readonly visitSessionsCached: number;
}

function labelled(text: string, name: string, label: string): Record<string, number> {
  const values: Record<string, number> = {};
  const pattern = new RegExp(`^${name}\\{[^}]*${label}="([^"]*)"[^}]*\\} (\\S+)$`);
  for (const line of text.split('\n')) {
    const match = pattern.exec(line);
    if (match) values[match[1] as string] = (values[match[1] as string] ?? 0) + Number(match[2]);
  }
  return values;
}

function plain(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : Number.NaN;
}

/** Sum of a histogram's `_count` and of its `le` bucket over all label sets. */
function histogram(text: string, name: string, le: string): { count: number; within: number } {
  let count = 0;
  let within = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}_count`)) count += Number(line.split(' ').pop());
    if (line.startsWith(`${name}_bucket`) && line.includes(`le="${le}"`)) within += Number(line.split(' ').pop());
  }
  return { count, within };
}

export async function readMetrics(client: SoakClient): Promise<MetricsReading> {
  const text = await client.text('/metrics');
  const steps = histogram(text, 'tally_background_step_duration_seconds', '1');
  return {
    rss: plain(text, 'tally_process_resident_memory_bytes'),
    eventLoopP99Ms: plain(text, 'tally_nodejs_eventloop_lag_p99_seconds') * 1000,
    eventLoopMaxMs: plain(text, 'tally_nodejs_eventloop_lag_max_seconds') * 1000,
    unavailable: labelled(text, 'tally_unavailable_total', 'cause'),
    backgroundSteps: steps.count,
    backgroundStalls: steps.count - steps.within,
    flushes: histogram(text, 'tally_flush_duration_seconds', '+Inf').count,
    documentCacheBytes: plain(text, 'tally_graphql_document_cache_bytes'),
    visitSessionsCached: plain(text, 'tally_visit_sessions_cached'),
  };
}
