/**
 * Validates one client hit into a Hit (and a batch, all or nothing). Each check names what was expected and what
 * came, and carries a RejectReason.
 */
import { LimitExceededError } from '../errors/LimitExceededError';
import { checkRevenueTotal, parseEvent } from './events/parseEvent';
import type { Hit, HitInputFields, HitLimits } from './Hit';
import { rejection } from './InputRejectedError';
import type { FieldName } from './InputRejectedError';
import { parsePage } from './parsePage';
import { parseSite } from './parseSite';
import { RejectReason } from './RejectReason';

export function parseHit(input: HitInputFields, options: { now: number; limits: HitLimits; path?: string }): Hit {
  const path = options.path;
  return parseHitFields(input, options.now, options.limits, path === undefined ? (n) => n : (n) => `${path}.${n}`);
}

/** `field` names a refused value; it is called only then, so a batch builds no names for good hits. */
function parseHitFields(input: HitInputFields, now: number, limits: HitLimits, field: (name: string) => string): Hit {
  const site = parseSite(input.site, () => field('site'));
  const page = parsePage(input.page, () => field('page'));
  const at = input.at == null ? now : input.at.getTime();
  checkAt(at, now, limits, () => field('at'));
  const count = input.count ?? 1;
  checkCount(count, limits, () => field('count'));
  if (input.event == null && input.props == null && input.revenue == null) return { site, page, at, count };
  const event = parseEvent(input, { allowEmailProps: limits.allowEmailProps === true }, field);
  if (event !== undefined) checkRevenueTotal(event, count, () => field('revenue.amount'));
  return event === undefined ? { site, page, at, count } : { site, page, at, count, event };
}

export function checkAt(at: number, now: number, limits: HitLimits, field: FieldName): void {
  if (at < 0) {
    throw rejection(
      RejectReason.AT_BEFORE_EPOCH,
      field,
      `must be on or after 1970-01-01T00:00:00.000Z, got ${describeInstant(at)}`,
    );
  }
  const latest = now + limits.maxClockSkewMs;
  if (at > latest) {
    throw rejection(
      RejectReason.AT_IN_FUTURE,
      field,
      `must be no later than ${new Date(latest).toISOString()} (server clock plus ${limits.maxClockSkewMs} ms), got ${describeInstant(at)}`,
    );
  }
}

export function checkCount(count: number, limits: HitLimits, field: FieldName): void {
  if (!Number.isSafeInteger(count) || count < 1) {
    throw rejection(RejectReason.COUNT_NOT_POSITIVE_INTEGER, field, `must be a positive integer, got ${count}`);
  }
  if (count > limits.maxCount) {
    throw rejection(RejectReason.COUNT_TOO_LARGE, field, `must be at most ${limits.maxCount}, got ${count}`);
  }
}

/** An instant as ISO-8601 when Date can print it (a columnar atMs may lie beyond year 275760). */
function describeInstant(at: number): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? `${at} ms since the epoch` : date.toISOString();
}

/** One argument holding more hits than INGEST_MAX_BATCH, answered like the same total over several fields. */
export function batchTooLarge(max: number, value: number, field: string): LimitExceededError {
  return new LimitExceededError('INGEST_MAX_BATCH', max, value, `the number of hits in ${field}`, 400, {
    field,
    reason: RejectReason.BATCH_TOO_LARGE,
  });
}

/** Validates a whole batch before anything is written: one bad hit rejects the batch. */
export function parseHitBatch(inputs: readonly HitInputFields[], options: { now: number; limits: HitLimits }): Hit[] {
  if (inputs.length > options.limits.maxBatchSize) {
    throw batchTooLarge(options.limits.maxBatchSize, inputs.length, 'hits');
  }
  const hits = new Array<Hit>(inputs.length);
  for (let i = 0; i < inputs.length; i++) {
    hits[i] = parseHitFields(inputs[i] as HitInputFields, options.now, options.limits, (n) => `hits[${i}].${n}`);
  }
  return hits;
}
