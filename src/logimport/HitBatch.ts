/**
 * The hits of one line range of one file, summed per (site, page, instant), and the idempotency key that
 * names the range. The key depends only on the file's content and the range, so re-running an interrupted
 * import sends byte-identical batches under the same keys and the server counts each one once.
 */
import type { Hit } from '../domain/Hit';

export interface HitBatch {
  /** `tally-import:v1:<file id>:<first line>-<last line>`. */
  readonly idempotencyKey: string;
  readonly file: string;
  readonly firstLine: number;
  readonly lastLine: number;
  /** Coalesced: one entry per (site, page, at) with its count. */
  readonly hits: readonly Hit[];
  /** Sum of the counts. */
  readonly total: number;
}

export function batchIdempotencyKey(fileId: string, firstLine: number, lastLine: number): string {
  return `tally-import:v1:${fileId}:${firstLine}-${lastLine}`;
}

/** Collects hits of consecutive lines; `take` closes the batch once the key is known. */
export class HitBatchBuilder {
  private readonly hits = new Map<string, { site: string; page: string; at: number; count: number }>();
  private total = 0;

  constructor(readonly firstLine: number) {}

  add(hit: Hit): void {
    const key = `${hit.at}\n${hit.site}\n${hit.page}`;
    const entry = this.hits.get(key);
    if (entry) entry.count += hit.count;
    else this.hits.set(key, { site: hit.site, page: hit.page, at: hit.at, count: hit.count });
    this.total += hit.count;
  }

  get size(): number {
    return this.hits.size;
  }

  take(fileId: string, file: string, lastLine: number): HitBatch {
    return {
      idempotencyKey: batchIdempotencyKey(fileId, this.firstLine, lastLine),
      file,
      firstLine: this.firstLine,
      lastLine,
      hits: [...this.hits.values()],
      total: this.total,
    };
  }
}
