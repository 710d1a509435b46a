/**
 * Validates client impressions into Impressions. Ids are opaque strings; forbidding control characters keeps
 * them printable and lets in-memory keys use a separator that no id can contain.
 */
import { describe } from '../errors/describe';
import { LimitExceededError } from '../errors/LimitExceededError';
import type { Impression, ImpressionInputFields, ImpressionLimits } from './Impression';
import { InputRejectedError } from './InputRejectedError';
import { RejectReason } from './RejectReason';
import { CONTROL_CHARACTERS } from './controlCharacters';

export const MAX_IMPRESSION_ID_LENGTH = 128;

export function parseImpressionId(id: string, field: string): string {
  if (id.length === 0) throw new InputRejectedError(RejectReason.ID_EMPTY, `${field} must not be empty`, field);
  if (id.length > MAX_IMPRESSION_ID_LENGTH) {
    throw new InputRejectedError(
      RejectReason.ID_TOO_LONG,
      `${field} must be at most ${MAX_IMPRESSION_ID_LENGTH} characters, got ${id.length}`,
      field,
    );
  }
  if (CONTROL_CHARACTERS.test(id)) {
    throw new InputRejectedError(
      RejectReason.ID_HAS_CONTROL,
      `${field} must not contain control characters, got ${describe(id)}`,
      field,
    );
  }
  // A lone surrogate would be stored as U+FFFD, silently merging two different ids.
  if (!id.isWellFormed()) {
    throw new InputRejectedError(
      RejectReason.MALFORMED_UNICODE,
      `${field} must be well-formed Unicode, got ${describe(id)}`,
      field,
    );
  }
  return id;
}

export function parseImpression(
  input: ImpressionInputFields,
  options: { limits: ImpressionLimits; path?: string },
): Impression {
  const prefix = options.path === undefined ? '' : `${options.path}.`;
  const userId = parseImpressionId(input.userId, `${prefix}userId`);
  const itemId = parseImpressionId(input.itemId, `${prefix}itemId`);
  const count = input.count ?? 1;
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new InputRejectedError(
      RejectReason.COUNT_NOT_POSITIVE_INTEGER,
      `${prefix}count must be a positive integer, got ${count}`,
      `${prefix}count`,
    );
  }
  if (count > options.limits.maxCount) {
    throw new InputRejectedError(
      RejectReason.COUNT_TOO_LARGE,
      `${prefix}count must be at most ${options.limits.maxCount}, got ${count}`,
      `${prefix}count`,
    );
  }
  return { userId, itemId, count };
}

/** Validates a whole batch before anything is written: one bad impression rejects the batch. */
export function parseImpressionBatch(inputs: readonly ImpressionInputFields[], limits: ImpressionLimits): Impression[] {
  if (inputs.length > limits.maxBatchSize) {
    throw new LimitExceededError(
      'IMPRESSIONS_MAX_BATCH',
      limits.maxBatchSize,
      inputs.length,
      'the number of impressions in impressions',
      400,
      { field: 'impressions', reason: RejectReason.BATCH_TOO_LARGE },
    );
  }
  return inputs.map((input, index) => parseImpression(input, { limits, path: `impressions[${index}]` }));
}
