/** The peer benchmark's traffic: reproducible, one visitor per ~5 hits, first visits marked, clients own visitors. */
import { PEER_BATCH, PEER_CLIENTS, PEER_SHAPES, clientBatches, peerHits } from '../../../../bench/peer/peerTraffic';

const NOW = Date.UTC(2026, 10, 26, 10, 0, 0);

describe('peerHits', () => {
  it.each(PEER_SHAPES)('replays the same $key hits inside its span, in time order', (shape) => {
    const hits = peerHits(shape, 2_000, NOW);
    expect(peerHits(shape, 2_000, NOW)).toEqual(hits);
    expect(hits).toHaveLength(2_000);
    for (const [i, hit] of hits.entries()) {
      expect(hit.at).toBeGreaterThanOrEqual(NOW - shape.spanMs);
      expect(hit.at).toBeLessThan(NOW);
      if (i > 0) expect(hit.at).toBeGreaterThanOrEqual((hits[i - 1] as { at: number }).at);
    }
  });

  it('marks exactly the first hit of each visitor on each page as a first visit', () => {
    const hits = peerHits(PEER_SHAPES[0] as (typeof PEER_SHAPES)[number], 5_000, NOW);
    const seen = new Set<string>();
    for (const hit of hits) {
      const pair = `${hit.visitor} ${hit.page}`;
      expect(hit.firstVisit).toBe(!seen.has(pair));
      seen.add(pair);
    }
    // One visitor per ~5 hits: the pool is a fifth of the hits, and repeat visits leave some of it unseen.
    const visitors = new Set(hits.map((hit) => hit.visitor)).size;
    expect(visitors).toBeGreaterThan(500);
    expect(visitors).toBeLessThanOrEqual(1_000);
  });
});

describe('clientBatches', () => {
  it('gives each client whole batches of its own visitors, in time order, and every hit once', () => {
    const hits = peerHits(PEER_SHAPES[1] as (typeof PEER_SHAPES)[number], 3_000, NOW);
    const streams = clientBatches(hits);
    expect(streams).toHaveLength(PEER_CLIENTS);
    const owner = new Map<string, number>();
    let sent = 0;
    for (const [client, batches] of streams.entries()) {
      const flat = batches.flat();
      sent += flat.length;
      for (const batch of batches.slice(0, -1)) expect(batch).toHaveLength(PEER_BATCH);
      for (const [i, hit] of flat.entries()) {
        expect(hit.client).toBe(client);
        if (i > 0) expect(hit.at).toBeGreaterThanOrEqual((flat[i - 1] as { at: number }).at);
        expect(owner.get(hit.visitor) ?? client).toBe(client);
        owner.set(hit.visitor, client);
      }
    }
    expect(sent).toBe(hits.length);
  });
});
