/**
 * The hits of one line range of one file, summed per (site, page, instant, visitor, dimension inputs), and the
 * idempotency key that names the range. The key depends only on the file's content and the range, so re-running
 * an interrupted import sends byte-identical batches under the same keys and the server counts each one once.
 * Hits with different visitors or dimension inputs are never summed: each keeps its own.
 */
import type { LogHit } from '../accesslog/LogHit';

export interface HitBatch {
  /** `tally-import:v1:<file id>:<first line>-<last line>`. */
  readonly idempotencyKey: string;
  readonly file: string;
  readonly firstLine: number;
  readonly lastLine: number;
  /** Coalesced: one entry per distinct (site, page, at, visitor and dimension inputs) with its count. */
  readonly hits: readonly LogHit[];
  /** Sum of the counts. */
  readonly total: number;
}

export function batchIdempotencyKey(fileId: string, firstLine: number, lastLine: number): string {
  return `tally-import:v1:${fileId}:${firstLine}-${lastLine}`;
}

/** Collects hits of consecutive lines; `take` closes the batch once the key is known. */
export class HitBatchBuilder {
  private readonly hits = new Map<string, { hit: LogHit; count: number }>();
  private total = 0;

  constructor(readonly firstLine: number) {}

  add(hit: LogHit): void {
    const key = coalescingKey(hit);
    const entry = this.hits.get(key);
    if (entry) entry.count += hit.count;
    else this.hits.set(key, { hit, count: hit.count });
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
      hits: [...this.hits.values()].map(({ hit, count }) => (hit.count === count ? hit : { ...hit, count })),
      total: this.total,
    };
  }
}

/** What two hits must share to be summed: everything but their count (JSON: no separator can be forged). */
function coalescingKey(hit: LogHit): string {
  const { utm } = hit;
  return JSON.stringify([
    hit.at,
    hit.site,
    hit.page,
    hit.visitor ?? null,
    hit.referrer ?? null,
    hit.userAgent ?? null,
    hit.clientIp ?? null,
    utm === undefined ? null : [utm.utmSource, utm.utmMedium, utm.utmCampaign],
  ]);
}
