import type { GraphQLResolveInfo } from 'graphql';
import { buildSchema } from '../../../src/graphql/buildSchema';

/** Hits that count every read of their fields: type-graphql's conversion into HitInput instances reads them all. */
function watchedHits(count: number): { readonly hits: object[]; readonly reads: string[] } {
  const reads: string[] = [];
  const hits = Array.from(
    { length: count },
    (_, i) =>
      new Proxy(
        { site: 'example.com', page: `/p${i}` },
        {
          get(target, key, receiver) {
            reads.push(String(key));
            return Reflect.get(target, key, receiver) as unknown;
          },
        },
      ),
  );
  return { hits, reads };
}

describe('PlainArg', () => {
  const recordHits = buildSchema().getMutationType()?.getFields()['recordHits'];

  it('hands recordHits its hits as graphql-js coerced them, without reading one of them on the way', async () => {
    const { hits, reads } = watchedHits(3);
    let received: unknown;
    let readsBeforeIngest = -1;
    const context = {
      idempotencyKeyHeader: undefined,
      services: {
        ingest: {
          recordHits: (given: unknown, options: unknown) => {
            received = given;
            readsBeforeIngest = reads.length;
            return Promise.resolve({ accepted: 3, options });
          },
        },
      },
    };
    const payload = (await recordHits?.resolve?.(
      undefined,
      { hits, idempotencyKey: 'key-1' },
      context,
      {} as GraphQLResolveInfo,
    )) as { accepted: number; options: unknown };
    expect(received).toBe(hits);
    expect(readsBeforeIngest).toBe(0);
    // The field's other arguments still reach the resolver through type-graphql.
    expect(payload).toEqual({ accepted: 3, options: { idempotencyKey: 'key-1' } });
  });
});
