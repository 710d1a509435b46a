/**
 * A page: a path starting with "/", at most 2,048 characters, without control characters, compared exactly
 * (`/ü` and `/u\u0308` are two pages).
 */
import { describe } from '../errors/describe';
import { CONTROL_CHARACTERS } from './controlCharacters';
import { rejection } from './InputRejectedError';
import type { FieldName } from './InputRejectedError';
import { RejectReason } from './RejectReason';

export const MAX_PAGE_LENGTH = 2048;

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
  if (CONTROL_CHARACTERS.test(page)) {
    throw rejection(RejectReason.PAGE_HAS_CONTROL, field, `must not contain control characters, got ${describe(page)}`);
  }
  // A lone surrogate would be stored as U+FFFD, silently merging two different pages.
  if (!page.isWellFormed()) {
    throw rejection(RejectReason.MALFORMED_UNICODE, field, `must be well-formed Unicode, got ${describe(page)}`);
  }
  return page;
}
