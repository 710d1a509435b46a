/**
 * Reads the server's Prometheus /metrics: CPU seconds of its process (prom-client default metric
 * `tally_process_cpu_seconds_total`, from process.cpuUsage) and database commands it sent
 * (`tally_mongodb_commands_total{command}`). Deltas between two snapshots attribute cost to one run.
 */
import type { GraphqlClient } from './GraphqlClient';

export interface ServerSnapshot {
  readonly cpuSeconds: number;
  readonly commands: Readonly<Record<string, number>>;
}

export async function snapshotServer(client: GraphqlClient): Promise<ServerSnapshot> {
  const text = await client.text('/metrics');
  let cpuSeconds = Number.NaN;
  const commands: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (line.startsWith('tally_process_cpu_seconds_total ')) cpuSeconds = Number(line.split(' ')[1]);
    const match = /^tally_mongodb_commands_total\{command="([^"]+)"\} (\S+)/.exec(line);
    if (match) commands[match[1] as string] = Number(match[2]);
  }
  return { cpuSeconds, commands };
}

export interface ServerDelta {
  readonly cpuSeconds: number;
  readonly commands: Record<string, number>;
}

export function serverDelta(before: ServerSnapshot, after: ServerSnapshot): ServerDelta {
  const commands: Record<string, number> = {};
  for (const [name, n] of Object.entries(after.commands)) {
    const delta = n - (before.commands[name] ?? 0);
    if (delta > 0) commands[name] = delta;
  }
  return { cpuSeconds: after.cpuSeconds - before.cpuSeconds, commands };
}
