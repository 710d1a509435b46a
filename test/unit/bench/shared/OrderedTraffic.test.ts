/** The ingest section's traffic: hits computed from their index, in time order, reproducible, Zipf-popular. */
import { OrderedTraffic, pagePath } from '../../../../bench/shared/traffic';

const shape = { pages: 20, zipfS: 1, spanMs: 86_400_000, now: Date.UTC(2026, 10, 22, 12), seed: 2002 };

describe('OrderedTraffic', () => {
  const traffic = new OrderedTraffic(shape, 10_000);
  const hits = Array.from({ length: traffic.total }, (_, i) => traffic.hit(i));

  it('sends hits in time order inside the window ending at now', () => {
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.at).toBeGreaterThanOrEqual(hits[i - 1]!.at);
    expect(hits[0]!.at).toBeGreaterThanOrEqual(shape.now - shape.spanMs);
    expect(hits[hits.length - 1]!.at).toBeLessThan(shape.now);
  });

  it('gives the same hit for the same index, whatever was asked before', () => {
    expect(new OrderedTraffic(shape, 10_000).hit(4_321)).toEqual(hits[4_321]);
  });

  it('makes the first page the most popular, about twice the second', () => {
    const count = (page: string): number => hits.filter((hit) => hit.page === page).length;
    const first = count(pagePath(0));
    const second = count(pagePath(1));
    expect(first).toBeGreaterThan(second);
    expect(first / second).toBeGreaterThan(1.6);
    expect(first / second).toBeLessThan(2.5);
  });
});
