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

/** A field name, or a function building it: batches build the names of refused values only. */
export type FieldName = string | (() => string);

function rejection(reason: RejectReason, field: FieldName, rest: string): HitRejectedError {
  const name = typeof field === 'string' ? field : field();
  return new HitRejectedError(reason, `${name} ${rest}`, name);
}

export function parseSite(site: string, field: FieldName = 'site'): string {
  if (site.length === 0) throw rejection(RejectReason.SITE_EMPTY, field, 'must not be empty');
  if (site.length > MAX_SITE_LENGTH) {
    throw rejection(
      RejectReason.SITE_TOO_LONG,
      field,
      `must be at most ${MAX_SITE_LENGTH} characters, got ${site.length}`,
    );
  }
  if (site.includes('/')) {
    throw rejection(RejectReason.SITE_HAS_SLASH, field, `must not contain "/", got ${describe(site)}`);
  }
  if (CONTROL.test(site) || WHITESPACE.test(site)) {
    throw rejection(
      RejectReason.SITE_HAS_WHITESPACE_OR_CONTROL,
      field,
      `must not contain whitespace or control characters, got ${describe(site)}`,
    );
  }
  if (!site.isWellFormed()) {
    throw rejection(RejectReason.MALFORMED_UNICODE, field, `must be well-formed Unicode, got ${describe(site)}`);
  }
  return site;
}

export function parsePage(page: string, field: FieldName = 'page'): string {
  if (!page.startsWith('/')) {
    throw rejection(RejectReason.PAGE_NOT_ABSOLUTE, field, `must start with "/", got ${describe(page)}`);
  }
  if (page.length > MAX_PAGE_LENGTH) {
    throw rejection(
      RejectReason.PAGE_TOO_LONG,
      field,
      `must be at most ${MAX_PAGE_LENGTH} characters, got ${page.length}`,
    );
  }
  if (CONTROL.test(page)) {
    throw rejection(RejectReason.PAGE_HAS_CONTROL, field, `must not contain control characters, got ${describe(page)}`);
  }
  // A lone surrogate would be stored as U+FFFD, silently merging two different pages.
  if (!page.isWellFormed()) {
    throw rejection(RejectReason.MALFORMED_UNICODE, field, `must be well-formed Unicode, got ${describe(page)}`);
  }
  return page;
}

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
  return { site, page, at, count };
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

/** Validates a whole batch before anything is written: one bad hit rejects the batch. */
export function parseHitBatch(inputs: readonly HitInputFields[], options: { now: number; limits: HitLimits }): Hit[] {
  if (inputs.length > options.limits.maxBatchSize) {
    throw new HitRejectedError(
      RejectReason.BATCH_TOO_LARGE,
      `hits must hold at most ${options.limits.maxBatchSize} hits, got ${inputs.length}`,
      'hits',
    );
  }
  const hits = new Array<Hit>(inputs.length);
  for (let i = 0; i < inputs.length; i++) {
    hits[i] = parseHitFields(inputs[i] as HitInputFields, options.now, options.limits, (n) => `hits[${i}].${n}`);
  }
  return hits;
}
