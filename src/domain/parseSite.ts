/**
 * A site as hits record it and queries name it: 1–253 characters without "/", whitespace or control characters.
 * No "/" is what keeps the seed-style id `<period>/<site><page>` from ever colliding.
 */
import { describe } from '../errors/describe';
import { CONTROL_CHARACTERS } from './controlCharacters';
import { rejection } from './InputRejectedError';
import type { FieldName } from './InputRejectedError';
import { RejectReason } from './RejectReason';

export const MAX_SITE_LENGTH = 253;

const WHITESPACE = /\s/u;

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
  if (CONTROL_CHARACTERS.test(site) || WHITESPACE.test(site)) {
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
