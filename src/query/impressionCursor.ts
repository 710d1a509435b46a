/**
 * Opaque cursors for the impression connections: the keyset position (count, then the ids that break ties)
 * of an edge, as base64url JSON. Resuming "after" a position has no gaps or repeats even when counts tie.
 */
import { BadUserInputError } from '../errors/BadUserInputError';
import { describe } from '../errors/describe';
import type { ItemCount, PairCount } from '../store/ImpressionStore';

const PAIR = 'p';
const ITEM = 'i';

export function encodePairCursor(pair: PairCount): string {
  return encode([PAIR, pair.count, pair.userId, pair.itemId]);
}

export function encodeItemCursor(item: ItemCount): string {
  return encode([ITEM, item.count, item.itemId]);
}

export function decodePairCursor(cursor: string, field = 'after'): PairCount {
  const parts = decode(cursor);
  if (
    parts?.length !== 4 ||
    parts[0] !== PAIR ||
    !isCount(parts[1]) ||
    typeof parts[2] !== 'string' ||
    typeof parts[3] !== 'string'
  ) {
    throw invalid(cursor, field);
  }
  return { count: parts[1], userId: parts[2], itemId: parts[3] };
}

export function decodeItemCursor(cursor: string, field = 'after'): ItemCount {
  const parts = decode(cursor);
  if (parts?.length !== 3 || parts[0] !== ITEM || !isCount(parts[1]) || typeof parts[2] !== 'string') {
    throw invalid(cursor, field);
  }
  return { count: parts[1], itemId: parts[2] };
}

function encode(parts: unknown[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

function decode(cursor: string): unknown[] | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const parts: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(parts) ? parts : undefined;
  } catch {
    return undefined;
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

function invalid(cursor: string, field: string): BadUserInputError {
  return new BadUserInputError(
    `${field} must be a cursor returned by this connection (an edge's cursor or pageInfo.endCursor), got ${describe(cursor)}`,
    field,
  );
}
