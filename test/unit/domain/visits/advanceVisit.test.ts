import { advanceVisit } from '../../../../src/domain/visits/advanceVisit';
import type { VisitDelta } from '../../../../src/domain/visits/VisitDelta';
import type { VisitHit, VisitState } from '../../../../src/domain/visits/VisitState';

const T0 = Date.parse('2026-02-28T23:50:00Z');
const MIN = 60_000;
const TIMEOUT = 30 * MIN;

function view(page: string, at: number, count = 1): VisitHit {
  return { site: 's', page, at, count, event: false };
}

function event(at: number): VisitHit {
  return { site: 's', page: '/any', at, count: 1, event: true };
}

/** Changes as `<page or site>.<field>@<start>` → amount, for readable tables. */
function summary(deltas: readonly VisitDelta[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of deltas) {
    const key = `${d.page ?? 'site'}.${d.field}@${new Date(d.start).toISOString().slice(11, 16)}`;
    out[key] = (out[key] ?? 0) + d.amount;
  }
  return out;
}

describe('advanceVisit', () => {
  it.each<[string, VisitHit[], Record<string, number>]>([
    [
      'one pageview: a visit, an entry, an exit and a bounce',
      [view('/a', T0)],
      {
        'site.v@23:50': 1,
        'site.p@23:50': 1,
        'site.b@23:50': 1,
        '/a.v@23:50': 1,
        '/a.e@23:50': 1,
        '/a.x@23:50': 1,
        '/a.p@23:50': 1,
        '/a.b@23:50': 1,
      },
    ],
    [
      "a second pageview across midnight and the month end stays in the first hit's period and undoes the bounce",
      [view('/a', T0), view('/b', T0 + 20 * MIN)],
      {
        'site.v@23:50': 1,
        'site.p@23:50': 2,
        'site.s@23:50': 1_200,
        '/a.v@23:50': 1,
        '/a.e@23:50': 1,
        '/a.p@23:50': 2,
        '/a.s@23:50': 1_200,
        '/b.v@23:50': 1,
        '/b.x@23:50': 1,
      },
    ],
    [
      'a gap of the timeout starts a new visit',
      [view('/a', T0), view('/a', T0 + TIMEOUT)],
      {
        'site.v@23:50': 1,
        'site.p@23:50': 1,
        'site.b@23:50': 1,
        '/a.v@23:50': 1,
        '/a.e@23:50': 1,
        '/a.x@23:50': 1,
        '/a.p@23:50': 1,
        '/a.b@23:50': 1,
        'site.v@00:20': 1,
        'site.p@00:20': 1,
        'site.b@00:20': 1,
        '/a.v@00:20': 1,
        '/a.e@00:20': 1,
        '/a.x@00:20': 1,
        '/a.p@00:20': 1,
        '/a.b@00:20': 1,
      },
    ],
    [
      'an event extends the visit and undoes its bounce, but is no pageview',
      [view('/a', T0), event(T0 + 90_000)],
      {
        'site.v@23:50': 1,
        'site.p@23:50': 1,
        'site.s@23:50': 90,
        '/a.v@23:50': 1,
        '/a.e@23:50': 1,
        '/a.x@23:50': 1,
        '/a.p@23:50': 1,
        '/a.s@23:50': 90,
      },
    ],
    ['an event with no visit starts none', [event(T0)], {}],
    [
      'a hit with count 2 is two pageviews: no bounce',
      [view('/a', T0, 2)],
      { 'site.v@23:50': 1, 'site.p@23:50': 2, '/a.v@23:50': 1, '/a.e@23:50': 1, '/a.x@23:50': 1, '/a.p@23:50': 2 },
    ],
    [
      'a page viewed twice counts its visit once',
      [view('/a', T0), view('/a', T0 + MIN)],
      {
        'site.v@23:50': 1,
        'site.p@23:50': 2,
        'site.s@23:50': 60,
        '/a.v@23:50': 1,
        '/a.e@23:50': 1,
        '/a.x@23:50': 1,
        '/a.p@23:50': 2,
        '/a.s@23:50': 60,
      },
    ],
  ])('%s', (_label, hits, expected) => {
    expect(summary(advanceVisit(undefined, hits, TIMEOUT).deltas)).toEqual(expected);
  });

  it('continues a stored visit: seconds from its last hit, the exit moved', () => {
    const stored: VisitState = {
      start: T0,
      last: T0 + MIN,
      entry: '/a',
      exit: '/b',
      views: 2,
      bounced: false,
      seen: [],
    };
    const { state, deltas } = advanceVisit(stored, [view('/c', T0 + 3 * MIN)], TIMEOUT);
    expect(summary(deltas)).toEqual({
      'site.p@23:50': 1,
      'site.s@23:50': 120,
      '/a.p@23:50': 1,
      '/a.s@23:50': 120,
      '/b.x@23:50': -1,
      '/c.x@23:50': 1,
      '/c.v@23:50': 1,
    });
    expect(state).toMatchObject({ start: T0, last: T0 + 3 * MIN, exit: '/c', views: 3 });
  });

  it('takes a late pageview within the timeout into the visit without moving its duration, entry or exit', () => {
    const stored: VisitState = {
      start: T0,
      last: T0 + 10 * MIN,
      entry: '/a',
      exit: '/a',
      views: 1,
      bounced: true,
      seen: [],
    };
    const { state, deltas } = advanceVisit(stored, [view('/b', T0 + 5 * MIN)], TIMEOUT);
    expect(summary(deltas)).toEqual({
      'site.p@23:50': 1,
      'site.b@23:50': -1,
      '/a.p@23:50': 1,
      '/a.b@23:50': -1,
      '/b.v@23:50': 1,
    });
    expect(state).toMatchObject({ last: T0 + 10 * MIN, exit: '/a', views: 2, bounced: false });
  });

  it("counts a pageview more than the timeout before the visit's last hit as a visit of its own, leaving the visit", () => {
    const stored: VisitState = {
      start: T0,
      last: T0 + 60 * MIN,
      entry: '/a',
      exit: '/a',
      views: 3,
      bounced: false,
      seen: [],
    };
    const { state, deltas } = advanceVisit(stored, [view('/old', T0 - 10 * MIN)], TIMEOUT);
    expect(summary(deltas)).toMatchObject({ 'site.v@23:40': 1, 'site.b@23:40': 1, '/old.e@23:40': 1 });
    expect(state).toBe(stored);
  });

  it('gives the same changes for the same inputs (a re-sent window recomputes them)', () => {
    const hits = [view('/a', T0), view('/b', T0 + MIN), event(T0 + 2 * MIN), view('/a', T0 + 40 * MIN)];
    expect(advanceVisit(undefined, hits, TIMEOUT)).toEqual(advanceVisit(undefined, hits, TIMEOUT));
  });
});
