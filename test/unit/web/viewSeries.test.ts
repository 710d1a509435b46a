import type { SiteResult, ViewResult } from '../../../web/dashboard/operations';
import { FILTER_COLOR, PAGE_COLORS, SITE_COLOR, viewSeries } from '../../../web/dashboard/viewSeries';

const DAY = 86_400_000;
const FROM = Date.parse('2026-11-20T00:00:00Z');
const iso = (t: number): string => new Date(t).toISOString();

function series(
  hits: number[],
  visitors: number | null,
  visitorsFrom = FROM,
  visitorsTo = FROM + hits.length * DAY,
): Omit<SiteResult, 'comparison'> {
  return {
    from: iso(FROM),
    to: iso(FROM + hits.length * DAY),
    total: hits.reduce((a, b) => a + b, 0),
    visitors,
    visitorsFrom: visitors === null ? null : iso(visitorsFrom),
    visitorsTo: visitors === null ? null : iso(visitorsTo),
    visits: null,
    bounceRate: null,
    visitDuration: null,
    viewsPerVisit: null,
    points: hits.map((h, i) => ({ t: iso(FROM + i * DAY), hits: h, visitors: i === 0 ? null : h })),
  };
}

describe('the chart and table of a view', () => {
  it('holds the site with its visitors line, the charted value, then each page, on shared buckets', () => {
    const site: SiteResult = { ...series([5, 7, 9], 6), comparison: null };
    const result: ViewResult = {
      site,
      filtered: series([1, 0, 2], null),
      p0: series([4, 7, 3], 4),
      p1: series([1, 0, 6], 2, FROM - DAY),
    };
    const chart = viewSeries(result, {
      site: 'a.com',
      pages: ['/', '/x'],
      siteDrawn: true,
      filter: { dimension: 'SOURCE', value: 'Google' },
    });
    expect(chart?.starts).toEqual([FROM, FROM + DAY, FROM + 2 * DAY]);
    expect(chart?.end).toBe(FROM + 3 * DAY);
    expect(chart?.visitors).toEqual([null, 7, 9]);
    expect(chart?.series).toEqual([
      { kind: 'site', label: 'a.com (whole site)', color: SITE_COLOR, hits: [5, 7, 9], visitors: 6, failed: false },
      {
        kind: 'filtered',
        label: 'source: Google',
        color: FILTER_COLOR,
        hits: [1, 0, 2],
        visitors: null,
        failed: false,
      },
      { kind: 'page', label: '/', color: PAGE_COLORS[0], page: '/', hits: [4, 7, 3], visitors: 4, failed: false },
      {
        kind: 'page',
        label: '/x',
        color: PAGE_COLORS[1],
        page: '/x',
        hits: [1, 0, 6],
        visitors: 2,
        visitorsSpan: { from: FROM - DAY, to: FROM + 3 * DAY },
        failed: false,
      },
    ]);
  });

  it("takes pages' visitors from their day series when the view reads them by day, marked with that span", () => {
    const hourly = { ...series([1, 2], null), from: iso(FROM + 3_600_000), to: iso(FROM + 2 * 3_600_000) };
    const chart = viewSeries(
      {
        site: { ...series([3], 2), comparison: null },
        p0: hourly,
        v0: { visitors: 3, visitorsFrom: iso(FROM), visitorsTo: iso(FROM + DAY) },
        p1: hourly,
        v1: null,
      },
      { site: 'a.com', pages: ['/', '/x'], siteDrawn: false },
    );
    expect(chart?.series.map((s) => [s.label, s.visitors, s.visitorsSpan])).toEqual([
      ['/', 3, { from: FROM, to: FROM + DAY }],
      ['/x', null, undefined],
    ]);
  });

  it('leaves out the site on a SECOND chart, and marks a failed series instead of dropping it', () => {
    const chart = viewSeries(
      { site: { ...series([1], 1), comparison: null }, p0: null, p1: series([2], null) },
      {
        site: 'a.com',
        pages: ['/', '/x'],
        siteDrawn: false,
      },
    );
    expect(chart?.visitors).toBeUndefined();
    expect(chart?.series.map((s) => [s.label, s.hits, s.failed])).toEqual([
      ['/', [0], true],
      ['/x', [2], false],
    ]);
  });

  it('has nothing to draw when every drawn series failed', () => {
    expect(viewSeries({ site: null, p0: null }, { site: 'a.com', pages: ['/'], siteDrawn: true })).toBeUndefined();
  });
});
