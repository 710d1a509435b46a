/**
 * TRUST_PROXY → Fastify's `trustProxy`, which decides whether `request.ip` (the beacon's client address, the
 * per-address rate limit) comes from X-Forwarded-For: `false` (the default: the socket's peer), `true` (every
 * proxy, only behind a load balancer that overwrites the header), a hop count, or the proxies' addresses and CIDR
 * ranges (also proxy-addr's names `loopback`, `linklocal`, `uniquelocal`).
 */
import { isIP } from 'node:net';
import { ConfigError } from '../errors/ConfigError';

export type TrustProxy = boolean | number | readonly string[];

const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const EXPECTED =
  'false, true, a hop count, or a comma list of proxy addresses and CIDR ranges (e.g. 10.0.0.0/8,::1 or loopback)';

export function parseTrustProxy(raw: string | undefined, name = 'TRUST_PROXY'): TrustProxy {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops >= 1 && hops <= 100) return hops;
    throw new ConfigError(name, EXPECTED, raw);
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!isProxyAddress(entry)) throw new ConfigError(name, EXPECTED, raw);
  }
  return entries;
}

function isProxyAddress(entry: string): boolean {
  if (NAMES.has(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const version = isIP(address);
  if (version === 0) return false;
  if (slash < 0) return true;
  const prefix = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}
