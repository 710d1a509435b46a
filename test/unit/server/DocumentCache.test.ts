import fc from 'fast-check';
import { parse } from 'graphql';
import {
  DocumentCache,
  documentHeapBytes,
  HEAP_BYTES_PER_TOKEN,
  MAX_SEEN_ONCE,
} from '../../../src/server/DocumentCache';

/** A document of `fields` root fields: 2 + 3 × fields tokens with the start and end of file. */
const documentOf = (fields: number) => parse(`{ ${Array.from({ length: fields }, (_, i) => `f${i}`).join(' ')} }`);

describe('documentHeapBytes', () => {
  it.each([
    ['{ a }', 5],
    ['query Q($x: Int) { a(x: $x) }', 19],
  ])('weighs %s as %i tokens at 300 bytes each plus its source text', (source, tokens) => {
    expect(documentHeapBytes(parse(source))).toBe(tokens * HEAP_BYTES_PER_TOKEN + source.length);
  });

  it('weighs a document without locations by 4.5 times its JSON', () => {
    const document = parse('{ a b c }', { noLocation: true });
    expect(documentHeapBytes(document)).toBe(Math.ceil(Buffer.byteLength(JSON.stringify(document)) * 4.5));
  });
});

describe('DocumentCache', () => {
  it('keeps a document from its second use on: a one-off document is never cached', async () => {
    const cache = new DocumentCache(1_000_000);
    const document = documentOf(3);
    await cache.set('k', document);
    expect(await cache.get('k')).toBeUndefined();
    await cache.set('k', document);
    expect(await cache.get('k')).toBe(document);
    expect(cache.documents).toBe(1);
    expect(cache.bytes).toBe(documentHeapBytes(document));
  });

  it('evicts the least recently used documents first to stay under its budget', async () => {
    const one = documentHeapBytes(documentOf(1));
    const cache = new DocumentCache(3 * one);
    const twice = async (key: string) => {
      await cache.set(key, documentOf(1));
      await cache.set(key, documentOf(1));
    };
    await twice('a');
    await twice('b');
    await twice('c');
    expect(await cache.get('a')).toBeDefined();
    await twice('d');
    expect(await cache.get('b')).toBeUndefined();
    expect((await Promise.all(['a', 'c', 'd'].map((k) => cache.get(k)))).every(Boolean)).toBe(true);
    expect(cache.bytes).toBe(3 * one);
  });

  it('never keeps a document that weighs more than the whole budget', async () => {
    const cache = new DocumentCache(documentHeapBytes(documentOf(2)));
    await cache.set('big', documentOf(10));
    await cache.set('big', documentOf(10));
    expect(await cache.get('big')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('forgets the keys it saw once, all at once, when it has seen MAX_SEEN_ONCE of them', async () => {
    const cache = new DocumentCache(1_000_000);
    await cache.set('first', documentOf(1));
    for (let i = 0; i < MAX_SEEN_ONCE; i++) await cache.set(`once${i}`, documentOf(1));
    await cache.set('first', documentOf(1));
    expect(await cache.get('first')).toBeUndefined();
  });

  it('holds at most its budget, the sum of its entries, whatever the sequence of uses', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 5_000 }),
        fc.array(
          fc.tuple(
            fc.constantFrom('set', 'get', 'delete'),
            fc.integer({ min: 0, max: 9 }),
            fc.integer({ min: 1, max: 12 }),
          ),
          {
            maxLength: 200,
          },
        ),
        async (budget, operations) => {
          const changes: number[] = [];
          const cache = new DocumentCache(budget, (bytes) => changes.push(bytes));
          const sizes = new Map<string, number>();
          for (const [operation, key, fields] of operations) {
            const name = `k${key}`;
            if (operation === 'set') await cache.set(name, documentOf(fields));
            else if (operation === 'get') await cache.get(name);
            else await cache.delete(name);
            sizes.set(name, fields);
          }
          expect(cache.bytes).toBeLessThanOrEqual(budget);
          expect(changes.every((bytes) => bytes <= budget)).toBe(true);
          let sum = 0;
          for (const key of sizes.keys()) {
            const document = await cache.get(key);
            if (document) sum += documentHeapBytes(document);
          }
          expect(cache.bytes).toBe(sum);
        },
      ),
      { numRuns: 200 },
    );
  });
});
