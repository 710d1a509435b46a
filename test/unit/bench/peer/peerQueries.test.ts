/** The peer benchmark's exact answers, per what a system counts, and how an answer is told from the truth. */
import type { Counting, PeerQuery } from '../../../../bench/peer/peerQueries';
import { describeAnswer, mismatch, peerQueries, truthOf } from '../../../../bench/peer/peerQueries';
import type { PeerHit } from '../../../../bench/peer/peerTraffic';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const TODAY = Date.UTC(2026, 10, 26);
const NOW = TODAY + 10 * HOUR;

function hit(page: string, at: number, visitor: string, firstVisit: boolean, referrer?: string): PeerHit {
  return { page, at, visitor, referrer, userAgent: 'UA', clientIp: '11.0.0.1', utm: undefined, client: 0, firstVisit };
}

const HITS: PeerHit[] = [
  hit('/a', NOW - 1 * HOUR, 'v1', true, 'https://www.google.com/'),
  hit('/a', NOW - 1 * HOUR + 1, 'v1', false, 'https://www.google.com/'),
  hit('/a', NOW - 2 * DAY, 'v2', true),
  hit('/b', NOW - 3 * HOUR, 'v1', true, 'https://t.co/x'),
  // Outside the 7 days, inside the 30.
  hit('/b', NOW - 10 * DAY, 'v3', true),
  // Before the 30 days.
  hit('/a', NOW - 40 * DAY, 'v4', true),
];
const HITS_ONLY: Counting = { firstVisitsOnly: false, referrerKey: (h) => h.referrer ?? '' };
const FIRST_VISITS: Counting = { firstVisitsOnly: true, referrerKey: (h) => h.referrer ?? '' };
const query = (kind: PeerQuery['kind']): PeerQuery => peerQueries(NOW, '/a').find((q) => q.kind === kind) as PeerQuery;

describe('peerQueries', () => {
  it('ranges over whole UTC days ending with today', () => {
    const queries = peerQueries(NOW, '/a');
    expect(queries.map((q) => q.kind)).toEqual([
      'siteTotal7Days',
      'pageByDay30Days',
      'pageByHour7Days',
      'topPages30Days',
      'referrers30Days',
    ]);
    expect(query('siteTotal7Days').range).toEqual({ from: TODAY - 6 * DAY, to: TODAY + DAY });
    expect(query('topPages30Days').range).toEqual({ from: TODAY - 29 * DAY, to: TODAY + DAY });
  });
});

describe('truthOf', () => {
  it('counts every hit, or first visits only, in the range', () => {
    expect(truthOf(query('siteTotal7Days'), HITS, HITS_ONLY).answer).toBe(4);
    expect(truthOf(query('siteTotal7Days'), HITS, FIRST_VISITS).answer).toBe(3);
  });

  it('puts the page hits in day and hour buckets of the range', () => {
    const byDay = truthOf(query('pageByDay30Days'), HITS, HITS_ONLY).answer as number[];
    expect(byDay).toHaveLength(30);
    expect(byDay[29]).toBe(2);
    expect(byDay[27]).toBe(1);
    expect(byDay.reduce((a, b) => a + b, 0)).toBe(3);
    const byHour = truthOf(query('pageByHour7Days'), HITS, FIRST_VISITS).answer as number[];
    expect(byHour).toHaveLength(7 * 24);
    expect(byHour[6 * 24 + 9]).toBe(1);
    expect(byHour.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('ranks pages and referrers by count, ties by key', () => {
    expect(truthOf(query('topPages30Days'), HITS, HITS_ONLY).answer).toEqual([
      { key: '/a', count: 3 },
      { key: '/b', count: 2 },
    ]);
    expect(truthOf(query('referrers30Days'), HITS, FIRST_VISITS).answer).toEqual([
      { key: '', count: 2 },
      { key: 'https://t.co/x', count: 1 },
      { key: 'https://www.google.com/', count: 1 },
    ]);
  });
});

describe('mismatch', () => {
  const top = truthOf(query('referrers30Days'), HITS, FIRST_VISITS);

  it('accepts the exact answer, and ranked rows tied at equal counts in either order', () => {
    expect(mismatch(4, truthOf(query('siteTotal7Days'), HITS, HITS_ONLY))).toBeUndefined();
    const swapped = [
      { key: '', count: 2 },
      { key: 'https://www.google.com/', count: 1 },
      { key: 'https://t.co/x', count: 1 },
    ];
    expect(mismatch(swapped, top)).toBeUndefined();
  });

  it.each([
    [5, 'siteTotal7Days', '5, expected 4'],
    [[0, 1], 'pageByDay30Days', '2 rows or buckets, expected 30'],
  ] as const)('says why %j is not the answer to %s', (answer, kind, why) => {
    expect(mismatch(answer as never, truthOf(query(kind), HITS, HITS_ONLY))).toBe(why);
  });

  it('names a wrong bucket, a wrong count and a missing row', () => {
    const byDay = [...(truthOf(query('pageByDay30Days'), HITS, HITS_ONLY).answer as number[])];
    byDay[29] = 1;
    expect(mismatch(byDay, truthOf(query('pageByDay30Days'), HITS, HITS_ONLY))).toBe('bucket 29: 1, expected 2');
    expect(mismatch([{ key: '', count: 3 }, ...(top.answer as never[]).slice(1)], top)).toBe('"": 3, expected 2');
    expect(mismatch([{ key: '', count: 2 }], top)).toBe('1 rows or buckets, expected 3');
  });
});

describe('describeAnswer', () => {
  it.each([
    [12_345, '12,345'],
    [[0, 3, 1], '4 over 3 buckets, peak 3'],
    [
      [
        { key: '', count: 5 },
        { key: '/a', count: 4 },
        { key: '/b', count: 3 },
        { key: '/c', count: 1 },
      ],
      '(none) 5, /a 4, /b 3, … (4 rows)',
    ],
  ] as const)('prints %j as %s', (answer, text) => {
    expect(describeAnswer(answer as never)).toBe(text);
  });
});
