/**
 * The plain routes' and Fastify's own errors, on a bare Fastify app on loopback (no database; Fastify's inject
 * needs an ESM-only dependency jest does not load): normalizeError's status and body, one rejection counted per
 * refused request, unknown errors masked.
 */
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../../../src/errors/ForbiddenError';
import { ServiceUnavailableError } from '../../../src/errors/ServiceUnavailableError';
import { createMetrics } from '../../../src/metrics/createMetrics';
import type { Metrics } from '../../../src/metrics/createMetrics';
import { installErrorHandler } from '../../../src/server/installErrorHandler';

let app: FastifyInstance;
let metrics: Metrics;
let url: string;

beforeEach(async () => {
  metrics = createMetrics();
  app = Fastify({ logger: false, bodyLimit: 64 });
  installErrorHandler(app, { maxBodyBytes: 64, metrics });
  app.get('/forbidden', async () => {
    throw new ForbiddenError('this operation needs scope "admin", which the API key lacks');
  });
  app.get('/unavailable', async () => {
    throw new ServiceUnavailableError();
  });
  app.get('/hook', async () => {
    throw Object.assign(new Error('missing scope read for site forbidden.example'), { code: 'FORBIDDEN' });
  });
  app.get('/bug', async () => {
    throw new TypeError("Cannot read properties of undefined (reading 'site')");
  });
  app.post('/echo', async (request) => request.body);
  app.post('/small', { bodyLimit: 8, config: { bodyLimitName: 'BEACON_MAX_BODY_BYTES' } }, async () => 'ok');
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterEach(async () => {
  await app.close();
});

interface Answer {
  readonly statusCode: number;
  json(): { errors: Array<{ message: string; extensions: Record<string, unknown> }> };
}

async function inject(request: {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: unknown;
}): Promise<Answer> {
  const body = typeof request.payload === 'string' ? request.payload : JSON.stringify(request.payload);
  const response = await fetch(`${url}${request.url}`, {
    method: request.method,
    headers: request.payload === undefined ? {} : { 'content-type': 'application/json', ...request.headers },
    ...(request.payload === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { statusCode: response.status, json: () => JSON.parse(text) };
}

async function rejections(): Promise<Array<Record<string, unknown>>> {
  return (await metrics.rejectedRequests.get()).values.map(({ labels, value }) => ({ ...labels, value }));
}

describe('installErrorHandler', () => {
  it("answers a route's AppError with its status and extensions, and counts the rejection", async () => {
    const response = await inject({ method: 'GET', url: '/forbidden' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      errors: [
        { message: 'this operation needs scope "admin", which the API key lacks', extensions: { code: 'FORBIDDEN' } },
      ],
    });
    expect(await rejections()).toEqual([{ code: 'FORBIDDEN', limit: '', value: 1 }]);
  });

  it("answers a hook's error that carries only a code with that code's status", async () => {
    const response = await inject({ method: 'GET', url: '/hook' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      errors: [{ message: 'missing scope read for site forbidden.example', extensions: { code: 'FORBIDDEN' } }],
    });
  });

  it('answers SERVICE_UNAVAILABLE with 503, not counted as a rejection', async () => {
    const response = await inject({ method: 'GET', url: '/unavailable' });
    expect(response.statusCode).toBe(503);
    expect(response.json().errors[0].extensions).toEqual({ code: 'SERVICE_UNAVAILABLE' });
    expect(await rejections()).toEqual([]);
  });

  it('names the body limit of the route (or HTTP_MAX_BODY_BYTES) with 413 LIMIT_EXCEEDED', async () => {
    const small = await inject({ method: 'POST', url: '/small', payload: { pad: 'xxxxxxxx' } });
    expect(small.statusCode).toBe(413);
    expect(small.json()).toEqual({
      errors: [
        {
          message: 'the request body in bytes is 18, more than the limit of 8 (BEACON_MAX_BODY_BYTES)',
          extensions: { code: 'LIMIT_EXCEEDED', limit: 'BEACON_MAX_BODY_BYTES', max: 8, value: 18 },
        },
      ],
    });
    const large = await inject({ method: 'POST', url: '/echo', payload: { pad: 'x'.repeat(100) } });
    expect(large.json().errors[0].extensions).toEqual({
      code: 'LIMIT_EXCEEDED',
      limit: 'HTTP_MAX_BODY_BYTES',
      max: 64,
      value: 110,
    });
    expect(await rejections()).toEqual([
      { code: 'LIMIT_EXCEEDED', limit: 'BEACON_MAX_BODY_BYTES', value: 1 },
      { code: 'LIMIT_EXCEEDED', limit: 'HTTP_MAX_BODY_BYTES', value: 1 },
    ]);
  });

  it("answers Fastify's client errors as BAD_REQUEST with their status", async () => {
    const response = await inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"a":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].extensions).toEqual({ code: 'BAD_REQUEST' });
    const media = await inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=1',
    });
    expect(media.statusCode).toBe(415);
    expect(media.json().errors[0].extensions).toEqual({ code: 'BAD_REQUEST' });
    expect(await rejections()).toEqual([{ code: 'BAD_REQUEST', limit: '', value: 2 }]);
  });

  it('answers an unknown route 404 NOT_FOUND, not counted as a rejection', async () => {
    const response = await inject({ method: 'GET', url: '/nope?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ errors: [{ message: 'no route GET /nope', extensions: { code: 'NOT_FOUND' } }] });
    expect(await rejections()).toEqual([]);
  });

  it('masks an unexpected error as a 500 without details', async () => {
    const response = await inject({ method: 'GET', url: '/bug' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    });
    expect(await rejections()).toEqual([]);
  });
});
