/**
 * What tally_requests_rejected_total counts, the same for every transport. A rejection is a request (an HTTP
 * request, or one operation or protocol message on a WebSocket) refused as a whole before any of it ran, for what
 * the request is: its size or rate (LIMIT_EXCEEDED, RATE_LIMITED, labelled with the limit's environment variable),
 * its credentials (UNAUTHENTICATED, FORBIDDEN), or its form (BAD_REQUEST; GRAPHQL_PARSE_FAILED and
 * GRAPHQL_VALIDATION_FAILED for documents that do not parse or validate). Not rejections: field errors beside data,
 * input values refused by validation (BAD_USER_INPUT: the ingest and beacon counters say why), the server's own
 * state (SERVICE_UNAVAILABLE, INTERNAL_SERVER_ERROR), unknown routes (NOT_FOUND), idempotency conflicts.
 * Callers pass the wire extensions of a whole-request refusal (the first error's), once per request.
 */
import type { Metrics } from './createMetrics';

const REJECTIONS: ReadonlySet<string> = new Set([
  'LIMIT_EXCEEDED',
  'RATE_LIMITED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'BAD_REQUEST',
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
]);

export function countRejection(
  metrics: Pick<Metrics, 'rejectedRequests'>,
  extensions: { readonly code?: unknown; readonly limit?: unknown } | undefined,
): void {
  const code = extensions?.code;
  if (typeof code !== 'string' || !REJECTIONS.has(code)) return;
  const limit = extensions?.limit;
  metrics.rejectedRequests.inc({ code, limit: typeof limit === 'string' ? limit : '' });
}
