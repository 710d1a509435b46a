/** Shared by the store's property tests: hits on a fixed set of pages over a span, and writing them as one flush. */
import fc from 'fast-check';
import type { Hit } from '../../src/domain/Hit';
import { CounterBatch } from '../../src/store/CounterBatch';
import type { CounterBatchOptions } from '../../src/store/CounterBatch';
import type { CounterStore } from '../../src/store/CounterStore';

/** Hits without a site (the property adds its own), on `pages`, in [from, to), of count 1 to `maxCount`. */
export function pageHits(
  pages: readonly string[],
  span: { readonly from: number; readonly to: number },
  options: { readonly maxCount: number; readonly minLength: number; readonly maxLength: number },
): fc.Arbitrary<Array<Omit<Hit, 'site'>>> {
  return fc.array(
    fc.record({
      page: fc.constantFrom(...pages),
      at: fc.integer({ min: span.from, max: span.to - 1 }),
      count: fc.integer({ min: 1, max: options.maxCount }),
    }),
    { minLength: options.minLength, maxLength: options.maxLength },
  );
}

/** Writes `hits` as one flush, with site totals unless told otherwise. */
export async function writeHits(
  store: CounterStore,
  hits: readonly Hit[],
  options: CounterBatchOptions = { siteTotals: true },
): Promise<void> {
  const batch = new CounterBatch(options);
  hits.forEach((hit) => batch.add(hit));
  await store.write(batch);
}
