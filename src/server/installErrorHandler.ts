/**
 * Errors of the plain (non-GraphQL) routes and of Fastify itself (body too large, bad JSON, unsupported
 * content type, rate limit) in the GraphQL error shape: `{"errors":[{"message","extensions":{"code"}}]}`
 * with a 4xx status. Anything unexpected is logged with its stack and answered 500 without details.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../errors/AppError';
import { LimitExceededError } from '../errors/LimitExceededError';
import { RateLimitedError } from '../errors/RateLimitedError';
import { MAX_MESSAGE_LENGTH } from '../graphql/formatError';
import type { Metrics } from '../metrics/createMetrics';

export interface ErrorBody {
  readonly errors: ReadonlyArray<{ message: string; extensions: Record<string, unknown> }>;
}

export function errorBody(message: string, extensions: Record<string, unknown>): ErrorBody {
  const shown = message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH)}…` : message;
  return { errors: [{ message: shown, extensions }] };
}

export function appErrorBody(error: AppError): ErrorBody {
  return errorBody(error.message, {
    code: error.code,
    ...(error instanceof LimitExceededError
      ? { limit: error.limit, max: error.max, ...(error.value === undefined ? {} : { value: error.value }) }
      : {}),
    ...(error instanceof RateLimitedError ? { limit: error.limit, max: error.max } : {}),
    ...('reason' in error && typeof error.reason === 'string' ? { reason: error.reason } : {}),
  });
}

export function installErrorHandler(app: FastifyInstance, options: { maxBodyBytes: number; metrics: Metrics }): void {
  const rejected = (error: AppError): void => {
    const limit = error instanceof LimitExceededError || error instanceof RateLimitedError ? error.limit : '';
    options.metrics.rejectedRequests.inc({ code: error.code, limit });
  };
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    if (error instanceof AppError) {
      rejected(error);
      return reply.code(error.httpStatus).send(appErrorBody(error));
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 413) {
      const length = Number(request.headers['content-length']);
      const routeLimit = request.routeOptions.config as { bodyLimitName?: string } | undefined;
      const limit = new LimitExceededError(
        routeLimit?.bodyLimitName ?? 'HTTP_MAX_BODY_BYTES',
        request.routeOptions.bodyLimit ?? options.maxBodyBytes,
        Number.isSafeInteger(length) ? length : undefined,
        'the request body in bytes',
        413,
      );
      rejected(limit);
      return reply.code(413).send(appErrorBody(limit));
    }
    if (status >= 400 && status < 500) {
      // Fastify's client errors (FST_ERR_CTP_*): their messages describe the request, never the server.
      return reply.code(status).send(errorBody(error.message, { code: 'BAD_REQUEST' }));
    }
    request.log.error({ err: error }, 'unexpected error in a route');
    return reply.code(500).send(errorBody('Internal server error', { code: 'INTERNAL_SERVER_ERROR' }));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody(`no route ${request.method} ${request.url.split('?')[0]}`, { code: 'NOT_FOUND' })),
  );
}
