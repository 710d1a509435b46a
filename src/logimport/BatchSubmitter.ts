/**
 * The bounded queue between parsing and the target: at most `concurrency` batches in flight, and `submit`
 * waits for a free slot, which pauses the reader (backpressure). Retryable failures are retried with
 * backoff under the same idempotency key, so a retry after a lost answer cannot count twice.
 */
import type { HitBatch } from './HitBatch';
import { ImportTargetError } from './ImportTarget';
import type { ImportTarget } from './ImportTarget';
import type { ImportStats } from './ImportStats';

export interface SubmitterOptions {
  readonly concurrency: number;
  /** Attempts per batch for retryable failures (network, overload, key in flight). */
  readonly attempts: number;
  readonly backoffMs: (attempt: number) => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export class BatchSubmitter {
  private inFlight = 0;
  private readonly slotWaiters: Array<() => void> = [];
  /** Set when no further batch can succeed; submit() then refuses. */
  abortReason: string | undefined;

  constructor(
    private readonly target: ImportTarget,
    private readonly stats: ImportStats,
    private readonly options: SubmitterOptions,
  ) {}

  /** Resolves when the batch has a slot (not when it is written); false once the import is aborted. */
  async submit(batch: HitBatch): Promise<boolean> {
    while (this.inFlight >= this.options.concurrency && this.abortReason === undefined) {
      await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
    }
    if (this.abortReason !== undefined) return false;
    this.inFlight += 1;
    void this.send(batch).finally(() => {
      this.inFlight -= 1;
      this.slotWaiters.splice(0).forEach((wake) => wake());
    });
    return true;
  }

  /** Waits for every batch in flight. */
  async drain(): Promise<void> {
    while (this.inFlight > 0) await new Promise<void>((resolve) => this.slotWaiters.push(resolve));
  }

  abort(reason: string): void {
    this.abortReason ??= reason;
    this.slotWaiters.splice(0).forEach((wake) => wake());
  }

  private async send(batch: HitBatch): Promise<void> {
    const sleep = this.options.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    for (let attempt = 1; ; attempt += 1) {
      try {
        const total = await this.target.send(batch);
        this.stats.hitsImported += total;
        this.stats.batchesSent += 1;
        return;
      } catch (error) {
        const failure =
          error instanceof ImportTargetError ? error : new ImportTargetError('abort', (error as Error).message);
        const where = `${batch.file} lines ${batch.firstLine}-${batch.lastLine}`;
        if (failure.kind === 'retry' && attempt < this.options.attempts && this.abortReason === undefined) {
          await sleep(this.options.backoffMs(attempt));
          continue;
        }
        this.stats.batchesFailed += 1;
        if (failure.kind === 'batch') {
          this.stats.failures.push(`${where}: ${failure.message}`);
        } else {
          const suffix = failure.kind === 'retry' ? ` (gave up after ${attempt} attempts)` : '';
          this.stats.failures.push(`${where}: ${failure.message}${suffix}`);
          this.abort(`${failure.message}${suffix}`);
        }
        return;
      }
    }
  }
}
