import type { ImpressionLimits } from '../../../src/domain/Impression';
import { InputRejectedError } from '../../../src/domain/InputRejectedError';
import { LimitExceededError } from '../../../src/errors/LimitExceededError';
import { parseImpression, parseImpressionBatch } from '../../../src/domain/parseImpression';
import { RejectReason } from '../../../src/domain/RejectReason';

const limits: ImpressionLimits = { maxCount: 1000, maxBatchSize: 3 };
const ok = { userId: 'u1', itemId: 'i1' };

function rejection(run: () => unknown): { reason: RejectReason; message: string; field: string | undefined } {
  try {
    run();
  } catch (error) {
    // A batch over its limit is LIMIT_EXCEEDED, keeping the reason and field of an input rejection.
    if (error instanceof LimitExceededError) {
      return { reason: error.reason as RejectReason, message: error.message, field: error.field };
    }
    if (error instanceof InputRejectedError) {
      return { reason: error.reason, message: error.message, field: error.field };
    }
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('parseImpression', () => {
  it.each([
    [{ ...ok, userId: '' }, RejectReason.ID_EMPTY, 'userId must not be empty', 'userId'],
    [{ ...ok, itemId: '' }, RejectReason.ID_EMPTY, 'itemId must not be empty', 'itemId'],
    [
      { ...ok, userId: 'u'.repeat(129) },
      RejectReason.ID_TOO_LONG,
      'userId must be at most 128 characters, got 129',
      'userId',
    ],
    [
      { ...ok, itemId: 'a\u0000b' },
      RejectReason.ID_HAS_CONTROL,
      'itemId must not contain control characters, got "a\\u0000b"',
      'itemId',
    ],
    [
      { ...ok, userId: 'a\nb' },
      RejectReason.ID_HAS_CONTROL,
      'userId must not contain control characters, got "a\\nb"',
      'userId',
    ],
    [
      { ...ok, itemId: 'x\ud800' },
      RejectReason.MALFORMED_UNICODE,
      'itemId must be well-formed Unicode, got "x\\ud800"',
      'itemId',
    ],
    [{ ...ok, count: 0 }, RejectReason.COUNT_NOT_POSITIVE_INTEGER, 'count must be a positive integer, got 0', 'count'],
    [
      { ...ok, count: -2 },
      RejectReason.COUNT_NOT_POSITIVE_INTEGER,
      'count must be a positive integer, got -2',
      'count',
    ],
    [
      { ...ok, count: 2.5 },
      RejectReason.COUNT_NOT_POSITIVE_INTEGER,
      'count must be a positive integer, got 2.5',
      'count',
    ],
    [{ ...ok, count: 1001 }, RejectReason.COUNT_TOO_LARGE, 'count must be at most 1000, got 1001', 'count'],
  ])('rejects %o with %s: %s', (input, reason, message, field) => {
    expect(rejection(() => parseImpression(input, { limits }))).toEqual({ reason, message, field });
  });

  it.each(['u', 'user 1', 'ü/路径', '😀', '$set', 'a.b', 'x'.repeat(128)])('accepts the id %s as it is', (id) => {
    expect(parseImpression({ userId: id, itemId: id }, { limits })).toEqual({ userId: id, itemId: id, count: 1 });
  });

  it('defaults a missing or null count to 1 and keeps a given one', () => {
    expect(parseImpression({ ...ok, count: null }, { limits }).count).toBe(1);
    expect(parseImpression({ ...ok, count: 1000 }, { limits }).count).toBe(1000);
  });
});

describe('parseImpressionBatch', () => {
  it('names the failing impression by its index in the batch', () => {
    const batch = [ok, ok, { ...ok, itemId: '' }];
    expect(rejection(() => parseImpressionBatch(batch, limits))).toEqual({
      reason: RejectReason.ID_EMPTY,
      message: 'impressions[2].itemId must not be empty',
      field: 'impressions[2].itemId',
    });
  });

  it('rejects a batch larger than the limit before looking at its impressions', () => {
    expect(rejection(() => parseImpressionBatch([ok, ok, ok, { ...ok, userId: '' }], limits))).toEqual({
      reason: RejectReason.BATCH_TOO_LARGE,
      message: 'the number of impressions in impressions is 4, more than the limit of 3 (IMPRESSIONS_MAX_BATCH)',
      field: 'impressions',
    });
  });

  it('accepts an empty batch', () => {
    expect(parseImpressionBatch([], limits)).toEqual([]);
  });
});
