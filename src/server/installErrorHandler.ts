/**
 * Errors of the plain (non-GraphQL) routes and of Fastify itself (body too large, bad JSON, unsupported content
 * type, rate limit, no such route), in the GraphQL error shape `{"errors":[{"message","extensions"}]}` with
 * normalizeError's status and extensions. Routes (beacon, export, /metrics) throw their AppErrors here; every one
 * of these answers refuses a whole request, so each goes through countRejection (and countUnavailable) once. Anything unexpected is
 * logged with its stack and answered 500 without details.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/AppError';
import { LimitExceededError } from '../errors/LimitExceededError';
import { normalizeError } from '../errors/normalizeError';
import { NotFoundError } from '../errors/NotFoundError';
import { unavailableCause } from '../errors/ServiceUnavailableError';
import { countRejection } from '../metrics/countRejection';
import { countUnavailable } from '../metrics/countUnavailable';
import type { Metrics } from '../metrics/createMetrics';

export function installErrorHandler(app: FastifyInstance, options: { maxBodyBytes: number; metrics: Metrics }): void {
  const send = (request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply => {
    const normalized = normalizeError(error);
    if (normalized.masked) request.log.error({ err: error, url: request.url }, 'unexpected error in a route');
    countRejection(options.metrics, normalized.extensions);
    countUnavailable(options.metrics, unavailableCause(error));
    if (normalized.retryAfterSeconds !== undefined) reply.header('retry-after', String(normalized.retryAfterSeconds));
    return reply
      .code(normalized.status)
      .send({ errors: [{ message: normalized.message, extensions: normalized.extensions }] });
  };
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    // Fastify's own body limit (FST_ERR_CTP_BODY_TOO_LARGE), named like every other limit.
    if (!(error instanceof AppError) && 'statusCode' in error && error.statusCode === 413) {
      const length = Number(request.headers['content-length']);
      const routeLimit = request.routeOptions.config as { bodyLimitName?: string } | undefined;
      const limit = new LimitExceededError(
        routeLimit?.bodyLimitName ?? 'HTTP_MAX_BODY_BYTES',
        request.routeOptions.bodyLimit ?? options.maxBodyBytes,
        Number.isSafeInteger(length) ? length : undefined,
        'the request body in bytes',
        413,
      );
      return send(request, reply, limit);
    }
    return send(request, reply, error);
  });
  app.setNotFoundHandler((request, reply) =>
    send(request, reply, new NotFoundError(`no route ${request.method} ${request.url.split('?')[0]}`)),
  );
}
