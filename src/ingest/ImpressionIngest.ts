/**
 * The impression use-case: validate the whole batch, coalesce it per (user, item) pair and per item, then
 * write it with a constant number of round trips (one bulk write per collection).
 */
import { ImpressionBatch } from '../store/ImpressionBatch';
import type { ImpressionInputFields, ImpressionLimits } from '../domain/Impression';
import { parseImpressionBatch } from '../domain/parseImpression';
import type { SerialQueue } from './SerialQueue';

export interface ImpressionWriter {
  write(batch: ImpressionBatch): Promise<void>;
}

export interface RecordedImpressions {
  /** ImpressionInputs accepted. */
  readonly accepted: number;
  /** Sum of their counts. */
  readonly total: number;
  /** Distinct (user, item) pairs incremented. */
  readonly pairs: number;
  /** Distinct items whose totals were incremented. */
  readonly items: number;
}

export class ImpressionIngest {
  constructor(
    private readonly deps: {
      readonly writer: ImpressionWriter;
      readonly limits: ImpressionLimits;
      /** Present when the engine needs one write in flight at a time. */
      readonly queue?: SerialQueue | undefined;
    },
  ) {}

  /** All or nothing: one invalid impression rejects the batch before anything is written. */
  async recordImpressions(inputs: readonly ImpressionInputFields[]): Promise<RecordedImpressions> {
    const batch = ImpressionBatch.of(parseImpressionBatch(inputs, this.deps.limits));
    if (batch.pairCount > 0) {
      const { writer, queue } = this.deps;
      await (queue ? queue.run(() => writer.write(batch)) : writer.write(batch));
    }
    return { accepted: inputs.length, total: batch.total, pairs: batch.pairCount, items: batch.itemCount };
  }
}
