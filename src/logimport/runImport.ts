/**
 * The import pipeline: read chunks → split lines → classify → group into fixed line ranges → submit with
 * at most a few batches in flight. Reading waits whenever the submitter has no free slot, so memory stays
 * bounded however large the input. Batch boundaries depend only on line numbers, so a re-run produces the
 * same batches under the same idempotency keys.
 */
import type { LogLineClassifier } from '../accesslog/LogLineClassifier';
import type { BatchSubmitter } from './BatchSubmitter';
import { FileIdentity } from './FileIdentity';
import { HitBatchBuilder } from './HitBatch';
import type { HitBatch } from './HitBatch';
import type { ImportStats } from './ImportStats';
import { LineSplitter } from './LineSplitter';
import { readLogChunks } from './readLogChunks';
import type { LogInput } from './readLogChunks';

export interface RunImportOptions {
  readonly inputs: readonly LogInput[];
  readonly classifier: LogLineClassifier;
  /** Lines per batch (so at most this many hits per batch). */
  readonly batchLines: number;
  /** Absent in a dry run: lines are parsed and batched, nothing is sent. */
  readonly submitter: BatchSubmitter | undefined;
  readonly stats: ImportStats;
  /** Aborted by Ctrl-C: stop reading, let batches in flight finish. */
  readonly signal?: AbortSignal | undefined;
}

export type ImportEnd = 'complete' | 'interrupted' | 'aborted';

export interface InputFailure {
  readonly input: string;
  readonly message: string;
}

export async function runImport(options: RunImportOptions): Promise<{ end: ImportEnd; readErrors: InputFailure[] }> {
  const readErrors: InputFailure[] = [];
  let end: ImportEnd = 'complete';
  for (const input of options.inputs) {
    try {
      end = await importOne(input, options);
    } catch (error) {
      readErrors.push({ input: input.name, message: (error as Error).message });
    }
    if (end !== 'complete') break;
  }
  await options.submitter?.drain();
  if (end === 'complete' && options.submitter?.abortReason !== undefined) end = 'aborted';
  return { end, readErrors };
}

async function importOne(input: LogInput, options: RunImportOptions): Promise<ImportEnd> {
  const { classifier, stats, batchLines } = options;
  const identity = new FileIdentity();
  /** Closed line ranges waiting for the file identity (only ever within the first 64 KiB). */
  const closed: Array<{ builder: HitBatchBuilder; lastLine: number }> = [];
  let ready: HitBatch[] = [];
  let lineNumber = 0;
  let builder = new HitBatchBuilder(1);

  const close = (lastLine: number): void => {
    if (builder.size > 0) closed.push({ builder, lastLine });
    builder = new HitBatchBuilder(lastLine + 1);
  };
  const release = (): void => {
    const fileId = identity.value;
    if (fileId === undefined) return;
    for (const { builder: done, lastLine } of closed) ready.push(done.take(fileId, input.name, lastLine));
    closed.length = 0;
  };
  const splitter = new LineSplitter((line, overlong) => {
    lineNumber += 1;
    stats.linesRead += 1;
    const outcome = overlong
      ? ({ kind: 'unparseable', reason: 'line longer than 1 MiB' } as const)
      : classifier.classify(line);
    if (outcome.kind === 'hit') builder.add(outcome.hit);
    stats.note(outcome, input.name, lineNumber, line);
    if (lineNumber % batchLines === 0) close(lineNumber);
  });

  for await (const chunk of readLogChunks(input, (bytes) => (stats.bytesRead += bytes))) {
    identity.update(chunk);
    splitter.push(chunk.toString('latin1'));
    release();
    if (!(await send(ready, options))) return 'aborted';
    ready = [];
    if (options.signal?.aborted === true) return 'interrupted';
  }
  splitter.end();
  close(lineNumber);
  identity.finish();
  release();
  return (await send(ready, options)) ? 'complete' : 'aborted';
}

async function send(batches: readonly HitBatch[], options: RunImportOptions): Promise<boolean> {
  if (options.submitter === undefined) return true;
  for (const batch of batches) {
    if (!(await options.submitter.submit(batch))) return false;
  }
  return true;
}
