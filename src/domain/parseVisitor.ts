/**
 * A visitor id a client sends (a hashed account id, a first-party cookie): 1–255 characters, well-formed, without
 * control characters. Opaque: only its keyed hash is ever kept (visitorHash), so messages never echo it either.
 */
import { CONTROL_CHARACTERS } from './controlCharacters';
import { rejection } from './InputRejectedError';
import type { FieldName } from './InputRejectedError';
import { RejectReason } from './RejectReason';

export const MAX_VISITOR_LENGTH = 255;

export function parseVisitor(visitor: string, field: FieldName = 'visitor'): string {
  if (visitor.length === 0) throw rejection(RejectReason.VISITOR_EMPTY, field, 'must not be empty');
  if (visitor.length > MAX_VISITOR_LENGTH) {
    throw rejection(
      RejectReason.VISITOR_TOO_LONG,
      field,
      `must be at most ${MAX_VISITOR_LENGTH} characters, got ${visitor.length}`,
    );
  }
  const control = visitor.search(CONTROL_CHARACTERS);
  if (control >= 0) {
    throw rejection(
      RejectReason.VISITOR_HAS_CONTROL,
      field,
      `must not contain control characters, got ${codePoint(visitor, control)} at index ${control}`,
    );
  }
  // A lone surrogate would be hashed as U+FFFD, silently merging two different ids.
  if (!visitor.isWellFormed()) {
    const index = loneSurrogate(visitor);
    throw rejection(
      RejectReason.MALFORMED_UNICODE,
      field,
      `must be well-formed Unicode, got the lone surrogate ${codePoint(visitor, index)} at index ${index}`,
    );
  }
  return visitor;
}

function codePoint(text: string, index: number): string {
  return `U+${text.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0')}`;
}

function loneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return i;
    } else if (code >= 0xdc00 && code <= 0xdfff) return i;
  }
  return -1;
}
