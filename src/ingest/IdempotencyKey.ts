/**
 * Idempotency keys (issue 9; semantics after the IETF httpapi draft "The Idempotency-Key HTTP Header Field"):
 * validation, the ledger id (a hash of scope and key, so any key fits an index entry), and the payload
 * fingerprint that tells a retry from a different request reusing the key.
 */
import { hasEventColumns } from '../domain/events/parseEventColumns';
import { createHash, createHmac } from 'node:crypto';
import { BadUserInputError } from '../errors/BadUserInputError';
import { describe } from '../errors/describe';
import type { HitInputFields } from '../domain/Hit';
import { CONTROL_CHARACTERS } from '../domain/controlCharacters';
import { DIMENSIONS } from '../domain/dimensions/Dimension';
import type { ExplicitDimensions } from '../domain/dimensions/deriveDimensions';
import { COLUMN_DICTIONARIES } from './HitColumnsRequest';
import type { HitColumnsRequest } from './HitColumnsRequest';

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
 * same fingerprint and is stamped with the original arrival time kept in the ledger. A hit's visitor and dimension
 * inputs extend its entry only when it has any, so a request without them keeps the fingerprint it always had; a
 * request with them is fingerprinted with HMAC under `secret` (the database's visitor secret), so the ledger holds
 * nothing from which a visitor id, an IP address or a User-Agent could be guessed back.
 */
export function fingerprint(
  kind: 'recordHit' | 'recordHits',
  inputs: readonly HitInputFields[],
  secret?: Uint8Array,
): string {
  let personal = false;
  const canonical = inputs.map((h) => {
    const base: unknown[] = [h.site, h.page, h.at == null ? null : h.at.getTime(), h.count ?? 1];
    // Event fields join only when sent, so a pageview's fingerprint is what it was before events existed.
    if (h.event != null || h.props != null || h.revenue != null) {
      base.push(
        h.event ?? null,
        h.props?.map(({ key, value }) => [key, value]) ?? null,
        h.revenue == null ? null : [h.revenue.amount, h.revenue.currency],
      );
    }
    if (h.visitor == null && h.referrer == null && h.userAgent == null && h.clientIp == null && h.dimensions == null) {
      return base;
    }
    personal = true;
    const inputsOf = [h.visitor ?? null, h.referrer ?? null, h.userAgent ?? null, h.clientIp ?? null];
    return [...base, ...inputsOf, explicitCanonical(h.dimensions)];
  });
  return digest(JSON.stringify([kind, canonical]), personal ? secret : undefined);
}

/** A columnar batch's fingerprint: the columns as sent (a retry must send the same columns). */
export function columnsFingerprint(columns: HitColumnsRequest, secret?: Uint8Array): string {
  const { sites, pages, siteIndex, pageIndex, atMs, count } = columns;
  const canonical: unknown[] = [
    'recordHitColumns',
    sites,
    pages,
    siteIndex ?? null,
    pageIndex,
    atMs ?? null,
    count ?? null,
  ];
  if (hasEventColumns(columns)) {
    const { events, eventIndex, properties, propertiesIndex, revenues, revenueIndex } = columns;
    canonical.push(
      events ?? null,
      eventIndex ?? null,
      properties?.map((props) => props.map(({ key, value }) => [key, value])) ?? null,
      propertiesIndex ?? null,
      revenues?.map(({ amount, currency }) => [amount, currency]) ?? null,
      revenueIndex ?? null,
    );
  }
  const personal = COLUMN_DICTIONARIES.some(
    ([dictionary, index]) => columns[dictionary] != null || columns[index] != null,
  );
  if (personal) {
    for (const [dictionary, index] of COLUMN_DICTIONARIES) {
      const values = columns[dictionary];
      canonical.push(
        dictionary === 'dimensions'
          ? ((values as readonly ExplicitDimensions[] | null | undefined)?.map(explicitCanonical) ?? null)
          : (values ?? null),
        columns[index] ?? null,
      );
    }
  }
  return digest(JSON.stringify(canonical), personal ? secret : undefined);
}

/** Explicit dimension values in DIMENSIONS order (null where unset), or null when none is set. */
function explicitCanonical(values: ExplicitDimensions | null | undefined): Array<string | null> | null {
  if (values == null) return null;
  return DIMENSIONS.map((dimension) => values[dimension] ?? null);
}

function digest(text: string, secret: Uint8Array | undefined): string {
  return (secret === undefined ? createHash('sha256') : createHmac('sha256', secret)).update(text).digest('base64url');
}
