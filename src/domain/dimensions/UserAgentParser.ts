/**
 * parseUserAgent behind a bounded LRU cache. Real traffic repeats a few thousand User-Agents, and a parse costs
 * tens of microseconds against well under one for a hit (bench/probes/dimensionCost.ts). One per process;
 * the cache holds only the derived families, keyed by the UA string itself, and never leaves memory.
 */
import { LruCache } from './LruCache';
import { parseUserAgent } from './parseUserAgent';
import type { UserAgentDimensions } from './parseUserAgent';

export const DEFAULT_USER_AGENT_CACHE_SIZE = 10_000;

export class UserAgentParser {
  private readonly cache: LruCache<string, UserAgentDimensions>;
  private hitCount = 0;
  private missCount = 0;

  constructor(capacity: number = DEFAULT_USER_AGENT_CACHE_SIZE) {
    this.cache = new LruCache(capacity);
  }

  parse(userAgent: string): UserAgentDimensions {
    let dimensions = this.cache.get(userAgent);
    if (dimensions === undefined) {
      this.missCount += 1;
      dimensions = parseUserAgent(userAgent);
      this.cache.set(userAgent, dimensions);
    } else {
      this.hitCount += 1;
    }
    return dimensions;
  }

  /** Lookups answered from the cache and lookups that parsed, since construction. */
  get stats(): { readonly hits: number; readonly misses: number; readonly size: number } {
    return { hits: this.hitCount, misses: this.missCount, size: this.cache.size };
  }
}
