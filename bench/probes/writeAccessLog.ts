/**
 * `node dist/bench/probes/writeAccessLog.js FILE [--lines N] [--style combined|common|vhost|iso] [--seed N]`: writes a
 * synthetic access log for the import benchmark (`tally import --dry-run FILE` measures parsing alone).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { generateLogEntries, formatLogEntry } from '../shared/accessLogs';
import { parseOptions } from '../shared/options';

async function main(argv: readonly string[]): Promise<void> {
  const { file, lines, style, seed } = parseOptions(argv, {
    file: { kind: 'positional', value: 'FILE', needs: 'the log file to write' },
    lines: { kind: 'integer', default: 1_000_000 },
    style: { kind: 'choice', choices: ['combined', 'common', 'vhost', 'iso'], default: 'combined' },
    seed: { kind: 'integer', default: 1 },
  });
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
