/**
 * Rate limits with @fastify/rate-limit: requests carrying a known API key count against that key
 * (RATE_LIMIT_PER_KEY; a pipeline behind NAT shares nothing with its neighbours), all others against the
 * client address (RATE_LIMIT_PER_ADDRESS). 0 switches either off. Runs after installAuth's onRequest hook.
 *
 * Limits fit the mode (issue 21): a server without keys that listens on loopback only has one client, the machine
 * itself (a local pipeline, the dashboard), so it has no per-address limit; with keys, or bound to a public
 * address (TALLY_AUTH=off), both limits apply as configured. Keys are counted in an LRU of 5,000 buckets
 * (@fastify/rate-limit's default): a bounded map whatever the number of addresses seen.
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

/** Who can reach the server: whether it has API keys, and whether it listens on loopback only. */
export interface Exposure {
  readonly keys: boolean;
  readonly loopbackOnly: boolean;
}

/** Rate-limit buckets kept at most (least recently used first out). */
export const RATE_LIMIT_BUCKETS = 5_000;

/** The limits that apply in this mode: no per-address limit on a loopback-only server without keys. */
export function effectiveRateLimits(limits: RateLimits, exposure: Exposure): RateLimits {
  return exposure.loopbackOnly && !exposure.keys ? { ...limits, ratePerAddress: 0 } : limits;
}

/** Installs the limits that apply (effectiveRateLimits) and returns them. */
export async function installRateLimit(
  app: FastifyInstance,
  configured: RateLimits,
  exposure: Exposure,
): Promise<RateLimits> {
  const limits = effectiveRateLimits(configured, exposure);
  if (limits.ratePerKey === 0 && limits.ratePerAddress === 0) return limits;
  const keyName = (request: FastifyRequest): string | undefined => {
    const principal = principalOf(request);
    return principal.kind === 'key' ? principal.name : undefined;
  };
  await app.register(rateLimit, {
    global: true,
    hook: 'onRequest',
    timeWindow: limits.rateWindowMs,
    cache: RATE_LIMIT_BUCKETS,
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
  return limits;
}
