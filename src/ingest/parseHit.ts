/**
 * Validates one client hit into a Hit. Each check names what was expected and what came, and carries a
 * RejectReason. Sites may not contain "/" so the seed-style id `YYYYMMDD/site/page` can never collide.
 */
import { describe } from '../errors/describe';
import type { Hit, HitInputFields, HitLimits } from './Hit';
import { HitRejectedError } from './HitRejectedError';
import { RejectReason } from './RejectReason';

export const MAX_SITE_LENGTH = 253;
export const MAX_PAGE_LENGTH = 2048;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const WHITESPACE = /\s/u;

export function parseSite(site: string, field = 'site'): string {
  if (site.length === 0) throw new HitRejectedError(RejectReason.SITE_EMPTY, `${field} must not be empty`, field);
  if (site.length > MAX_SITE_LENGTH) {
    throw new HitRejectedError(
      RejectReason.SITE_TOO_LONG,
      `${field} must be at most ${MAX_SITE_LENGTH} characters, got ${site.length}`,
      field,
    );
  }
  if (site.includes('/')) {
    throw new HitRejectedError(
      RejectReason.SITE_HAS_SLASH,
      `${field} must not contain "/", got ${describe(site)}`,
      field,
    );
  }
  if (CONTROL.test(site) || WHITESPACE.test(site)) {
    throw new HitRejectedError(
      RejectReason.SITE_HAS_WHITESPACE_OR_CONTROL,
      `${field} must not contain whitespace or control characters, got ${describe(site)}`,
      field,
    );
  }
  if (!site.isWellFormed()) {
    throw new HitRejectedError(
      RejectReason.MALFORMED_UNICODE,
      `${field} must be well-formed Unicode, got ${describe(site)}`,
      field,
    );
  }
  return site;
}

export function parsePage(page: string, field = 'page'): string {
  if (!page.startsWith('/')) {
    throw new HitRejectedError(
      RejectReason.PAGE_NOT_ABSOLUTE,
      `${field} must start with "/", got ${describe(page)}`,
      field,
    );
  }
  if (page.length > MAX_PAGE_LENGTH) {
    throw new HitRejectedError(
      RejectReason.PAGE_TOO_LONG,
      `${field} must be at most ${MAX_PAGE_LENGTH} characters, got ${page.length}`,
      field,
    );
  }
  if (CONTROL.test(page)) {
    throw new HitRejectedError(
      RejectReason.PAGE_HAS_CONTROL,
      `${field} must not contain control characters, got ${describe(page)}`,
      field,
    );
  }
  // A lone surrogate would be stored as U+FFFD, silently merging two different pages.
  if (!page.isWellFormed()) {
    throw new HitRejectedError(
      RejectReason.MALFORMED_UNICODE,
      `${field} must be well-formed Unicode, got ${describe(page)}`,
      field,
    );
  }
  return page;
}

export function parseHit(input: HitInputFields, options: { now: number; limits: HitLimits; path?: string }): Hit {
  const prefix = options.path === undefined ? '' : `${options.path}.`;
  const site = parseSite(input.site, `${prefix}site`);
  const page = parsePage(input.page, `${prefix}page`);
  const at = input.at == null ? options.now : input.at.getTime();
  if (at < 0) {
    throw new HitRejectedError(
      RejectReason.AT_BEFORE_EPOCH,
      `${prefix}at must be on or after 1970-01-01T00:00:00.000Z, got ${new Date(at).toISOString()}`,
      `${prefix}at`,
    );
  }
  const latest = options.now + options.limits.maxClockSkewMs;
  if (at > latest) {
    throw new HitRejectedError(
      RejectReason.AT_IN_FUTURE,
      `${prefix}at must be no later than ${new Date(latest).toISOString()} (server clock plus ${options.limits.maxClockSkewMs} ms), got ${new Date(at).toISOString()}`,
      `${prefix}at`,
    );
  }
  const count = input.count ?? 1;
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new HitRejectedError(
      RejectReason.COUNT_NOT_POSITIVE_INTEGER,
      `${prefix}count must be a positive integer, got ${count}`,
      `${prefix}count`,
    );
  }
  if (count > options.limits.maxCount) {
    throw new HitRejectedError(
      RejectReason.COUNT_TOO_LARGE,
      `${prefix}count must be at most ${options.limits.maxCount}, got ${count}`,
      `${prefix}count`,
    );
  }
  return { site, page, at, count };
}

/** Validates a whole batch before anything is written: one bad hit rejects the batch. */
export function parseHitBatch(inputs: readonly HitInputFields[], options: { now: number; limits: HitLimits }): Hit[] {
  if (inputs.length > options.limits.maxBatchSize) {
    throw new HitRejectedError(
      RejectReason.BATCH_TOO_LARGE,
      `hits must hold at most ${options.limits.maxBatchSize} hits, got ${inputs.length}`,
      'hits',
    );
  }
  return inputs.map((input, index) => parseHit(input, { ...options, path: `hits[${index}]` }));
}
