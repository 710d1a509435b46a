/**
 * `node dist/bench/writeAccessLog.js FILE [--lines N] [--style combined|common|vhost|iso] [--seed N]`: writes a
 * synthetic access log for the import benchmark (`tally import --dry-run FILE` measures parsing alone).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { generateLogEntries, formatLogEntry } from './accessLogs';
import type { LogStyle } from './accessLogs';

async function main(argv: readonly string[]): Promise<void> {
  const file = argv[0];
  if (file === undefined || file.startsWith('--')) throw new Error('expected the output file as the first argument');
  const flag = (name: string, fallback: string): string => {
    const index = argv.indexOf(name);
    return index >= 0 ? (argv[index + 1] ?? fallback) : fallback;
  };
  const lines = Number(flag('--lines', '1000000'));
  const style = flag('--style', 'combined') as LogStyle;
  const seed = Number(flag('--seed', '1'));
  const days = 30;
  const out = createWriteStream(file);
  let buffer = '';
  for (const entry of generateLogEntries({
    count: lines,
    seed,
    sites: ['example.com', 'blog.example.com'],
    start: Date.UTC(2026, 0, 1),
    spanMs: days * 86_400_000,
  })) {
    buffer += `${formatLogEntry(entry, style)}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
  console.log(`wrote ${lines} ${style} lines to ${file}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
