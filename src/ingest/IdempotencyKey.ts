/**
 * Idempotency keys (issue 9; semantics after the IETF httpapi draft "The Idempotency-Key HTTP Header Field"):
 * validation, the ledger id (a hash of scope and key, so any key fits an index entry), and the payload
 * fingerprint that tells a retry from a different request reusing the key.
 */
import { createHash } from 'node:crypto';
import { BadUserInputError } from '../errors/BadUserInputError';
import { describe } from '../errors/describe';
import type { HitInputFields } from '../domain/Hit';
import type { HitColumns } from '../domain/HitColumns';
import { CONTROL_CHARACTERS } from '../domain/controlCharacters';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export interface IdempotencyKey {
  readonly key: string;
  /** The ledger `_id`: sha256 of scope and key. */
  readonly id: string;
}

/**
 * `scope` separates key spaces (e.g. one per API key once keys exist); the same key in two scopes is two keys.
 * Throws BAD_USER_INPUT naming `field` for an empty, too long or control-character key.
 */
export function parseIdempotencyKey(raw: string, scope = '', field = 'idempotencyKey'): IdempotencyKey {
  if (
    raw.length === 0 ||
    raw.length > MAX_IDEMPOTENCY_KEY_LENGTH ||
    CONTROL_CHARACTERS.test(raw) ||
    !raw.isWellFormed()
  ) {
    throw new BadUserInputError(
      `${field} must be 1–${MAX_IDEMPOTENCY_KEY_LENGTH} characters without control characters, got ${describe(raw)}`,
      field,
    );
  }
  return { key: raw, id: createHash('sha256').update(scope).update('\u0000').update(raw).digest('hex') };
}

/**
 * The request as the client sent it, before `at` defaults to the arrival time: a retry sent without `at` has the
 * same fingerprint and is stamped with the original arrival time kept in the ledger.
 */
export function fingerprint(kind: 'recordHit' | 'recordHits', inputs: readonly HitInputFields[]): string {
  const canonical = inputs.map((h) => [h.site, h.page, h.at == null ? null : h.at.getTime(), h.count ?? 1]);
  return createHash('sha256')
    .update(JSON.stringify([kind, canonical]))
    .digest('base64url');
}

/** A columnar batch's fingerprint: the columns as sent (a retry must send the same columns). */
export function columnsFingerprint(columns: HitColumns): string {
  const { sites, pages, siteIndex, pageIndex, atMs, count } = columns;
  return createHash('sha256')
    .update(
      JSON.stringify(['recordHitColumns', sites, pages, siteIndex ?? null, pageIndex, atMs ?? null, count ?? null]),
    )
    .digest('base64url');
}
