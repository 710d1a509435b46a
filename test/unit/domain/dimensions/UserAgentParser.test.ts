import { LruCache } from '../../../../src/domain/dimensions/LruCache';
import { parseUserAgent } from '../../../../src/domain/dimensions/parseUserAgent';
import { UserAgentParser } from '../../../../src/domain/dimensions/UserAgentParser';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const EDGE =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87';

describe('UserAgentParser', () => {
  it('answers what parseUserAgent answers, parsing each User-Agent once while it stays cached', () => {
    const parser = new UserAgentParser(10);
    for (const ua of [FIREFOX, SAFARI, FIREFOX, FIREFOX, SAFARI]) expect(parser.parse(ua)).toEqual(parseUserAgent(ua));
    expect(parser.stats).toEqual({ hits: 3, misses: 2, size: 2 });
  });

  it('holds at most its capacity, dropping the least recently used User-Agent', () => {
    const parser = new UserAgentParser(2);
    parser.parse(FIREFOX);
    parser.parse(SAFARI);
    parser.parse(FIREFOX); // Safari is now the least recently used
    parser.parse(EDGE); // evicts Safari
    parser.parse(FIREFOX);
    parser.parse(SAFARI); // parsed again
    expect(parser.stats).toEqual({ hits: 2, misses: 4, size: 2 });
  });
});

describe('LruCache', () => {
  it('evicts in least-recently-used order and never holds more than its capacity', () => {
    const cache = new LruCache<string, number>(3);
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const) {
      cache.set(key, value);
    }
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect([cache.get('b'), cache.get('c'), cache.get('a'), cache.get('d')]).toEqual([undefined, 3, 1, 4]);
    cache.set('c', 30);
    cache.set('e', 5);
    expect(cache.size).toBe(3);
    expect([cache.get('a'), cache.get('c'), cache.get('d'), cache.get('e')]).toEqual([undefined, 30, 4, 5]);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a capacity of %p', (capacity) => {
    expect(() => new LruCache(capacity)).toThrow(
      new RangeError(`capacity must be a positive integer, got ${capacity}`),
    );
  });
});
