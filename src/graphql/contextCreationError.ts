/**
 * An error thrown while a request's context is built refuses the whole request (SERVICE_UNAVAILABLE while tally
 * waits for its database). Apollo answers anything but a GraphQLError there with HTTP 500 and the message prefixed
 * "Context creation failed: "; this hands Apollo normalizeError's status, Retry-After and plain message instead, so
 * GraphQL refuses like /export and the beacon (issue 31). formatError then gives the code, from the original error.
 */
import { HeaderMap } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { normalizeError } from '../errors/normalizeError';

export function contextCreationError(error: unknown): GraphQLError {
  const normalized = normalizeError(error);
  const headers = new HeaderMap();
  if (normalized.retryAfterSeconds !== undefined) headers.set('retry-after', String(normalized.retryAfterSeconds));
  return new GraphQLError(normalized.message, {
    originalError: error instanceof Error ? error : undefined,
    extensions: { http: { status: normalized.status, headers } },
  });
}
