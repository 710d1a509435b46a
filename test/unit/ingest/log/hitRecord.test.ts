import type { Hit } from '../../../../src/domain/Hit';
import { decodeHits, encodeHits } from '../../../../src/ingest/log/hitRecord';

describe('hitRecord', () => {
  it('round-trips events with properties and revenue beside pageviews', () => {
    const hits: Hit[] = [
      { site: 'a.com', page: '/', at: 1, count: 1, visitor: { hi: 5, lo: 6 } },
      { site: 'a.com', page: '/buy', at: 2, count: 3, event: { name: 'Signup', props: [['plan', 'pro']] } },
      {
        site: 'a.com',
        page: '/buy',
        at: 3,
        count: 1,
        event: { name: 'Purchase', props: [], revenue: { currency: 'JPY', minor: 1500 } },
      },
    ];
    expect(decodeHits(encodeHits(hits))).toEqual(hits);
  });

  it('replays a record written before events existed as pageviews', () => {
    const old = Buffer.from(JSON.stringify([['a.com', '/', 10, 2, -1, 0, 0]]));
    expect(decodeHits(old)).toEqual([{ site: 'a.com', page: '/', at: 10, count: 2 }]);
  });
});
