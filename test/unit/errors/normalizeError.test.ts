/**
 * normalizeError, the one map from an error to what a client sees on every transport: each AppError subclass's
 * status, code, pinned message and extensions; errors that carry only a code; framework refusals; masking.
 */
import { GraphQLError } from 'graphql';
import { RejectReason } from '../../../src/domain/RejectReason';
import { InputRejectedError } from '../../../src/domain/InputRejectedError';
import { STATUS_OF_CODE } from '../../../src/errors/AppError';
import type { AppError } from '../../../src/errors/AppError';
import { BadRequestError } from '../../../src/errors/BadRequestError';
import { BadUserInputError } from '../../../src/errors/BadUserInputError';
import { ForbiddenError } from '../../../src/errors/ForbiddenError';
import { IdempotencyKeyInProgressError } from '../../../src/errors/IdempotencyKeyInProgressError';
import { IdempotencyKeyReusedError } from '../../../src/errors/IdempotencyKeyReusedError';
import { LimitExceededError } from '../../../src/errors/LimitExceededError';
import { MAX_MESSAGE_LENGTH, normalizeError } from '../../../src/errors/normalizeError';
import { NotFoundError } from '../../../src/errors/NotFoundError';
import { RateLimitedError } from '../../../src/errors/RateLimitedError';
import { ServiceUnavailableError } from '../../../src/errors/ServiceUnavailableError';
import { UnauthenticatedError } from '../../../src/errors/UnauthenticatedError';

const MASKED = {
  status: 500,
  message: 'Internal server error',
  extensions: { code: 'INTERNAL_SERVER_ERROR' },
  appError: undefined,
  masked: true,
};

describe('normalizeError', () => {
  it.each<[string, AppError, number, string, Record<string, unknown>]>([
    [
      'BadRequestError',
      new BadRequestError('the body must be JSON'),
      400,
      'the body must be JSON',
      { code: 'BAD_REQUEST' },
    ],
    [
      'BadRequestError with its own status',
      new BadRequestError('unsupported content type', 415),
      415,
      'unsupported content type',
      { code: 'BAD_REQUEST' },
    ],
    [
      'BadUserInputError with a field',
      new BadUserInputError('timeZone must be an IANA zone, got "Mars/Olympus"', 'timeZone'),
      400,
      'timeZone must be an IANA zone, got "Mars/Olympus"',
      { code: 'BAD_USER_INPUT', field: 'timeZone' },
    ],
    [
      'BadUserInputError without a field',
      new BadUserInputError('site is required'),
      400,
      'site is required',
      { code: 'BAD_USER_INPUT' },
    ],
    [
      'InputRejectedError (reason and field)',
      new InputRejectedError(
        RejectReason.PAGE_NOT_ABSOLUTE,
        'hits[3].page must start with "/", got "x"',
        'hits[3].page',
      ),
      400,
      'hits[3].page must start with "/", got "x"',
      { code: 'BAD_USER_INPUT', field: 'hits[3].page', reason: 'PAGE_NOT_ABSOLUTE' },
    ],
    [
      'UnauthenticatedError',
      new UnauthenticatedError(),
      401,
      'an API key is required: send "Authorization: Bearer <secret>"',
      { code: 'UNAUTHENTICATED' },
    ],
    [
      'ForbiddenError',
      new ForbiddenError('this operation needs scope "admin", which the API key lacks'),
      403,
      'this operation needs scope "admin", which the API key lacks',
      { code: 'FORBIDDEN' },
    ],
    ['NotFoundError', new NotFoundError('no route GET /nope'), 404, 'no route GET /nope', { code: 'NOT_FOUND' }],
    [
      'LimitExceededError with the value received',
      new LimitExceededError('GRAPHQL_MAX_ALIASES', 30, 31, 'the number of aliases in the operation'),
      400,
      'the number of aliases in the operation is 31, more than the limit of 30 (GRAPHQL_MAX_ALIASES)',
      { code: 'LIMIT_EXCEEDED', limit: 'GRAPHQL_MAX_ALIASES', max: 30, value: 31 },
    ],
    [
      'LimitExceededError where counting stopped at the limit',
      new LimitExceededError('GRAPHQL_MAX_TOKENS', 15000, undefined, 'the number of tokens in the document'),
      400,
      'the number of tokens in the document exceeds the limit of 15000 (GRAPHQL_MAX_TOKENS)',
      { code: 'LIMIT_EXCEEDED', limit: 'GRAPHQL_MAX_TOKENS', max: 15000 },
    ],
    [
      'LimitExceededError with its own status',
      new LimitExceededError('HTTP_MAX_BODY_BYTES', 2048, 2049, 'the request body in bytes', 413),
      413,
      'the request body in bytes is 2049, more than the limit of 2048 (HTTP_MAX_BODY_BYTES)',
      { code: 'LIMIT_EXCEEDED', limit: 'HTTP_MAX_BODY_BYTES', max: 2048, value: 2049 },
    ],
    [
      'RateLimitedError',
      new RateLimitedError('RATE_LIMIT_PER_ADDRESS', 5, 60_000, '1 minute'),
      429,
      'more than 5 requests in 60 s (RATE_LIMIT_PER_ADDRESS); retry in 1 minute',
      { code: 'RATE_LIMITED', limit: 'RATE_LIMIT_PER_ADDRESS', max: 5 },
    ],
    [
      'ServiceUnavailableError',
      new ServiceUnavailableError(),
      503,
      'the database is unavailable; retry later',
      { code: 'SERVICE_UNAVAILABLE' },
    ],
    [
      'IdempotencyKeyReusedError',
      new IdempotencyKeyReusedError(),
      400,
      'idempotencyKey was already used for a different request: a retry must repeat the original hits exactly (same site, page, at and count, in the same order); use a new key for new hits',
      { code: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotencyKey' },
    ],
    [
      'IdempotencyKeyInProgressError',
      new IdempotencyKeyInProgressError(2_500),
      400,
      'a request with this idempotency key is still in progress; retry in about 3 s (it will not be counted twice)',
      { code: 'IDEMPOTENCY_KEY_IN_PROGRESS' },
    ],
  ])('maps a %s to its status, message and extensions', (_name, error, status, message, extensions) => {
    const retryAfter = error instanceof ServiceUnavailableError ? { retryAfterSeconds: 5 } : {};
    expect(normalizeError(error)).toEqual({
      status,
      message,
      extensions,
      appError: error,
      masked: false,
      ...retryAfter,
    });
  });

  it.each<[string, AppError]>([
    ['BadRequestError', new BadRequestError('x')],
    ['BadUserInputError', new BadUserInputError('x')],
    ['UnauthenticatedError', new UnauthenticatedError()],
    ['ForbiddenError', new ForbiddenError('x')],
    ['NotFoundError', new NotFoundError('x')],
    ['LimitExceededError', new LimitExceededError('L', 1, 2, 'x')],
    ['RateLimitedError', new RateLimitedError('L', 1, 1000, '1 s')],
    ['ServiceUnavailableError', new ServiceUnavailableError()],
    ['IdempotencyKeyReusedError', new IdempotencyKeyReusedError()],
    ['IdempotencyKeyInProgressError', new IdempotencyKeyInProgressError(1)],
  ])('gives a %s by default the status its code has for errors that carry only a code', (_name, error) => {
    expect(error.httpStatus).toBe(STATUS_OF_CODE[error.code]);
  });

  it('finds an AppError that graphql-js wrapped (resolver, coercion, validation)', () => {
    const original = new ForbiddenError('the API key is not valid for site "b.example" (scope "ingest")');
    const wrapped = new GraphQLError('wrapped', {
      originalError: new GraphQLError('inner', { originalError: original }),
    });
    expect(normalizeError(wrapped)).toMatchObject({
      status: 403,
      appError: original,
      extensions: { code: 'FORBIDDEN' },
    });
  });

  it('cuts a message longer than MAX_MESSAGE_LENGTH characters and marks the cut', () => {
    const long = new BadUserInputError(`page must be at most 2048 characters, got "${'x'.repeat(1000)}"`, 'page');
    const { message } = normalizeError(long);
    expect(message).toHaveLength(MAX_MESSAGE_LENGTH + 1);
    expect(message).toBe(`${long.message.slice(0, MAX_MESSAGE_LENGTH)}…`);
    expect(normalizeError(new BadUserInputError('x'.repeat(MAX_MESSAGE_LENGTH))).message).toHaveLength(
      MAX_MESSAGE_LENGTH,
    );
  });

  it("gives a hook's error that carries one of our codes that code's status", () => {
    const error = Object.assign(new Error('missing scope read for site forbidden.example'), { code: 'FORBIDDEN' });
    expect(normalizeError(error)).toEqual({
      status: 403,
      message: 'missing scope read for site forbidden.example',
      extensions: { code: 'FORBIDDEN' },
      appError: undefined,
      masked: false,
    });
  });

  it("passes graphql-js's and Apollo's request errors with their own code", () => {
    const error = new GraphQLError('Cannot query field "nope" on type "Query".', {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(normalizeError(error)).toMatchObject({
      status: 400,
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      masked: false,
    });
  });

  it("answers a framework's client refusal known only by its 4xx status as BAD_REQUEST with that status", () => {
    const fastify = Object.assign(new Error('Unsupported Media Type: application/x-www-form-urlencoded'), {
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      statusCode: 415,
    });
    expect(normalizeError(fastify)).toEqual({
      status: 415,
      message: 'Unsupported Media Type: application/x-www-form-urlencoded',
      extensions: { code: 'BAD_REQUEST' },
      appError: undefined,
      masked: false,
    });
    const apollo = new GraphQLError('provided sha does not match query', { extensions: { http: { status: 400 } } });
    expect(normalizeError(apollo)).toMatchObject({ status: 400, extensions: { code: 'BAD_REQUEST' } });
  });

  it.each<[string, unknown]>([
    ['a plain Error', new Error('connection pool closed at 10.0.0.7:27017')],
    [
      "an error with a code that is not ours (Node's, the driver's)",
      Object.assign(new Error('x'), { code: 'ECONNRESET' }),
    ],
    ['a server-side status', Object.assign(new Error('x'), { statusCode: 503 })],
    [
      'an error that claims INTERNAL_SERVER_ERROR',
      new GraphQLError('x', { extensions: { code: 'INTERNAL_SERVER_ERROR' } }),
    ],
    ['a thrown string', 'boom'],
    ['undefined', undefined],
  ])('masks %s as INTERNAL_SERVER_ERROR', (_name, error) => {
    expect(normalizeError(error)).toEqual(MASKED);
  });
});
