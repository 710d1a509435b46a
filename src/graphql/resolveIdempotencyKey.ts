/**
 * Picks a mutation's idempotency key from its `idempotencyKey` argument or the request's `Idempotency-Key` HTTP
 * header (issue 9). Both given and different is a client mistake; so is a header on a request with several
 * counting mutations, since one key cannot name two different requests.
 */
import type { GraphQLResolveInfo } from 'graphql';
import { BadUserInputError } from '../errors/BadUserInputError';
import { describe } from '../errors/describe';

const KEYED_FIELDS = new Set(['recordHit', 'recordHits', 'recordHitColumns']);

export function resolveIdempotencyKey(
  argument: string | null | undefined,
  header: string | undefined,
  info: Pick<GraphQLResolveInfo, 'operation'>,
): string | undefined {
  if (header === undefined) return argument ?? undefined;
  if (argument != null) {
    if (argument !== header) {
      throw new BadUserInputError(
        `idempotencyKey must equal the Idempotency-Key header when both are given, got ${describe(argument)} and header ${describe(header)}`,
        'idempotencyKey',
      );
    }
    return argument;
  }
  const keyed = info.operation.selectionSet.selections.filter(
    (s) => s.kind === 'Field' && KEYED_FIELDS.has(s.name.value),
  ).length;
  if (keyed > 1) {
    throw new BadUserInputError(
      `the Idempotency-Key header applies to a request with one recordHit, recordHits or recordHitColumns field, got ${keyed}; pass an idempotencyKey argument to each instead`,
      'idempotencyKey',
    );
  }
  return header;
}
