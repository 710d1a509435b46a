import { PANELS, panelContent } from '../../../web/dashboard/panels';

const edge = (value: string, hits: number, visitors: number | null = null) => ({ node: { value, hits, visitors } });

describe('a breakdown panel', () => {
  it('shows the six dimensions of issue 20', () => {
    expect(PANELS.map((p) => p.dimension)).toEqual(['SOURCE', 'UTM_CAMPAIGN', 'COUNTRY', 'BROWSER', 'OS', 'DEVICE']);
    expect(new Set(PANELS.map((p) => p.alias)).size).toBe(PANELS.length);
  });

  it('lists the values, labels the markers, adds the (other) remainder and counts the values left out', () => {
    const content = panelContent({
      from: 'f',
      to: 't',
      totalCount: 14,
      other: 7,
      edges: [edge('Google', 30), edge('(internal)', 12), edge('(direct)', 5)],
    });
    const unknown = { visitors: null, visits: null, bounceRate: null };
    expect(content.rows).toEqual([
      { value: 'Google', hits: 30, ...unknown, chartable: true },
      { value: '(internal)', hits: 12, ...unknown, chartable: true, note: 'from the site itself' },
      { value: '(direct)', hits: 5, ...unknown, chartable: true, note: 'no referrer' },
      { value: '(other)', hits: 7, ...unknown, chartable: false, note: 'values not kept apart' },
    ]);
    expect(content.more).toBe(11);
  });

  it('keeps the visitors the API gives, and has nothing more when every value is listed', () => {
    const content = panelContent({
      from: 'f',
      to: 't',
      totalCount: 2,
      other: 0,
      edges: [edge('mobile', 3, 2), edge('desktop', 1, 1)],
    });
    expect(content.rows.map((r) => [r.value, r.hits, r.visitors])).toEqual([
      ['mobile', 3, 2],
      ['desktop', 1, 1],
    ]);
    expect(content.more).toBe(0);
  });

  it("keeps each value's visits and bounce rate, and has none for the (other) remainder", () => {
    const content = panelContent({
      from: 'f',
      to: 't',
      totalCount: 3,
      other: 4,
      edges: [
        { node: { value: 'Google', hits: 9, visitors: null, visits: 4, bounceRate: 0.25 } },
        { node: { value: '(direct)', hits: 2, visitors: null, visits: 0, bounceRate: null } },
      ],
    });
    expect(content.rows.map((r) => [r.value, r.visits, r.bounceRate])).toEqual([
      ['Google', 4, 0.25],
      ['(direct)', 0, null],
      ['(other)', null, null],
    ]);
  });
});
