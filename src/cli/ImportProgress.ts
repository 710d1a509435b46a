/**
 * Progress while an import runs, on stderr: a bar on a terminal (cli-progress: lines, hits/s, ETA from the
 * bytes read against the files' total size), plain periodic lines otherwise (CI logs, `2> file`).
 */
import cliProgress from 'cli-progress';
import type { ImportStats } from '../logimport/ImportStats';
import type { ProgressMode } from './parseImportArgs';

export interface ProgressSink {
  write(text: string): unknown;
  isTTY?: boolean | undefined;
}

const PLAIN_INTERVAL_MS = 5_000;
const BAR_INTERVAL_MS = 200;

export interface ImportProgress {
  stop(): void;
}

export function startImportProgress(
  mode: ProgressMode,
  stream: ProgressSink,
  stats: ImportStats,
  totalBytes: number | undefined,
  dryRun: boolean,
  clock: () => number = Date.now,
): ImportProgress {
  const resolved = mode === 'auto' ? (stream.isTTY === true ? 'bar' : 'plain') : mode;
  if (resolved === 'none') return { stop: () => undefined };
  const started = clock();
  const hits = (): number => (dryRun ? stats.hitsParsed : stats.hitsImported);
  const rate = (value: number): string => {
    const seconds = (clock() - started) / 1000;
    return seconds > 0 ? formatCount(Math.round(value / seconds)) : '0';
  };
  if (resolved === 'plain') {
    const timer = setInterval(() => {
      const share =
        totalBytes !== undefined && totalBytes > 0 ? `, ${Math.floor((100 * stats.bytesRead) / totalBytes)}% read` : '';
      stream.write(
        `tally import: ${formatCount(stats.linesRead)} lines (${rate(stats.linesRead)}/s), ` +
          `${formatCount(hits())} hits ${dryRun ? 'parsed' : 'imported'} (${rate(hits())}/s)${share}\n`,
      );
    }, PLAIN_INTERVAL_MS);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }
  const known = totalBytes !== undefined && totalBytes > 0;
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WritableStream,
      format: known
        ? '{bar} {percentage}% | {lines} lines | {hits} hits | {rate} hits/s | ETA {eta_formatted}'
        : '{lines} lines | {hits} hits | {rate} hits/s | {duration_formatted}',
      fps: 5,
      etaBuffer: 50,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  const payload = (): Record<string, string> => ({
    lines: formatCount(stats.linesRead),
    hits: formatCount(hits()),
    rate: rate(hits()),
  });
  bar.start(known ? totalBytes : 1, 0, payload());
  const timer = setInterval(
    () => bar.update(Math.min(stats.bytesRead, known ? totalBytes : 0), payload()),
    BAR_INTERVAL_MS,
  );
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      bar.stop();
    },
  };
}

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}
