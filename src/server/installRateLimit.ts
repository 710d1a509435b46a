/**
 * Rate limits with @fastify/rate-limit: requests carrying a known API key count against that key
 * (RATE_LIMIT_PER_KEY; a pipeline behind NAT shares nothing with its neighbours), all others against the
 * client address (RATE_LIMIT_PER_ADDRESS). 0 switches either off. Runs after installAuth's onRequest hook.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../auth/authorizeRequest';
import { RateLimitedError } from '../errors/RateLimitedError';

export interface RateLimits {
  readonly ratePerKey: number;
  readonly ratePerAddress: number;
  readonly rateWindowMs: number;
}

export async function installRateLimit(app: FastifyInstance, limits: RateLimits): Promise<void> {
  if (limits.ratePerKey === 0 && limits.ratePerAddress === 0) return;
  const keyName = (request: FastifyRequest): string | undefined => {
    const principal = principalOf(request);
    return principal.kind === 'key' ? principal.name : undefined;
  };
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: limits.rateWindowMs,
    keyGenerator: (request) => {
      const name = keyName(request);
      return name === undefined ? `address:${request.ip}` : `key:${name}`;
    },
    max: (_request, key) => (key.startsWith('key:') ? limits.ratePerKey : limits.ratePerAddress),
    allowList: (_request, key) => (key.startsWith('key:') ? limits.ratePerKey : limits.ratePerAddress) === 0,
    errorResponseBuilder: (request, context) =>
      new RateLimitedError(
        keyName(request) === undefined ? 'RATE_LIMIT_PER_ADDRESS' : 'RATE_LIMIT_PER_KEY',
        context.max,
        limits.rateWindowMs,
        context.after,
      ),
  });
}
