/**
 * Progress of a dump, restore or migrate, on stderr: a bar on a terminal (documents against the source's estimated
 * count, the collection being copied, ETA), nothing otherwise (scripts and cron jobs read the summary instead).
 */
import cliProgress from 'cli-progress';
import { formatCount } from './ImportProgress';
import type { ProgressSink } from './ImportProgress';

export interface ArchiveProgress {
  /** Sets the total (the sum of the collections' estimates; documents written meanwhile may pass it). */
  start(total: number): void;
  advance(collection: string, documents: number): void;
  stop(): void;
}

const SILENT: ArchiveProgress = { start: () => undefined, advance: () => undefined, stop: () => undefined };

export function startArchiveProgress(stream: ProgressSink, verb: string): ArchiveProgress {
  if (stream.isTTY !== true) return SILENT;
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as NodeJS.WritableStream,
      format: `${verb} {bar} {percentage}% | {done} of ~{estimated} documents | {collection} | ETA {eta_formatted}`,
      fps: 5,
      etaBuffer: 200,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let done = 0;
  let total = 0;
  let started = false;
  return {
    start(estimated) {
      total = Math.max(1, estimated);
      bar.start(total, 0, { done: '0', estimated: formatCount(estimated), collection: '' });
      started = true;
    },
    advance(collection, documents) {
      done += documents;
      if (done > total) {
        total = done;
        bar.setTotal(total);
      }
      bar.update(done, { done: formatCount(done), collection });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
