import type { SiteResult } from '../../../web/dashboard/operations';
import { topLine } from '../../../web/dashboard/topLine';

const READ_AT = Date.parse('2026-11-22T15:04:10Z');

/** A week of UTC days, compared with the week before: every span matches. */
function week(
  overrides: Partial<SiteResult> = {},
  comparison: Partial<NonNullable<SiteResult['comparison']>> = {},
): SiteResult {
  return {
    from: '2026-11-15T00:00:00.000Z',
    to: '2026-11-23T00:00:00.000Z',
    total: 3402,
    visitors: 1204,
    visitorsFrom: '2026-11-15T00:00:00.000Z',
    visitorsTo: '2026-11-23T00:00:00.000Z',
    visits: 1500,
    bounceRate: 0.42,
    visitDuration: 125,
    viewsPerVisit: 3402 / 1500,
    points: [],
    comparison: {
      from: '2026-11-07T00:00:00.000Z',
      to: '2026-11-15T00:00:00.000Z',
      total: 3507,
      change: 3402 / 3507 - 1,
      visitors: 1075,
      visitorsChange: 1204 / 1075 - 1,
      visitorsFrom: '2026-11-07T00:00:00.000Z',
      visitorsTo: '2026-11-15T00:00:00.000Z',
      visits: 1400,
      bounceRate: 0.4,
      visitDuration: 150,
      viewsPerVisit: 3507 / 1400,
      ...comparison,
    },
    ...overrides,
  };
}

/** A range without visits: the counters answer 0, and no rate over them. */
const NO_VISITS = { visits: 0, bounceRate: null, visitDuration: null, viewsPerVisit: null } as const;
/** A minute chart, or counters retention dropped: visits are not known at all. */
const VISITS_UNKNOWN = { visits: null, bounceRate: null, visitDuration: null, viewsPerVisit: null } as const;

const texts = (site: SiteResult, liveHits = 0): string[] =>
  topLine(site, liveHits, READ_AT).figures.map((f) => `${f.value} ${f.unit} ${f.change.text}`);

describe('the top-line figures', () => {
  it('shows hits dropped by retention as unknown, never as a zero', () => {
    const line = topLine(week({ total: null }, { total: null }), 12, READ_AT);
    const hits = line.figures.find((f) => f.key === 'hits');
    expect(hits?.value).toBe('—');
    expect(hits?.change.direction).toBe('none');
    expect(hits?.title).toMatch(/retention/);
  });

  it('shows visitors, visits, hits, views per visit, bounce rate and visit duration, each against the previous period', () => {
    const line = topLine(week(), 0, READ_AT);
    expect(line.figures.map((f) => `${f.value} ${f.unit} ${f.change.text}`)).toEqual([
      '1,204 visitors ▲ 12 %',
      '1,500 visits ▲ 7 %',
      '3,402 hits ▼ 3 %',
      // 3402 / 1500 = 2.27 against 3507 / 1400 = 2.51: -9 %.
      '2.27 views per visit ▼ 9 %',
      // Rates change by percentage points: 42 % against 40 %.
      '42 % bounce rate ▲ 2 pp',
      // 125 s against 150 s: -17 %.
      '2m 05s visit duration ▼ 17 %',
    ]);
    expect(line.figures.map((f) => f.key)).toEqual([
      'visitors',
      'visits',
      'hits',
      'viewsPerVisit',
      'bounceRate',
      'visitDuration',
    ]);
    expect(line.figures.map((f) => f.change.direction)).toEqual(['up', 'up', 'down', 'down', 'up', 'down']);
    expect(line.figures[0]?.change.title).toBe('against 1,075 in the previous period, 7 Nov – 14 Nov UTC');
    expect(line.figures[4]?.change.title).toBe('against 40 % in the previous period, 7 Nov – 14 Nov UTC');
    expect(line.figures[5]?.change.title).toBe('against 2m 30s in the previous period, 7 Nov – 14 Nov UTC');
    expect(line.notes).toEqual(['15 Nov – 22 Nov UTC, against the previous period 7 Nov – 14 Nov UTC.']);
  });

  it('says when the visitors count a wider span than the hits', () => {
    const line = topLine(
      week(
        { from: '2026-11-15T15:00:00.000Z', to: '2026-11-22T16:00:00.000Z' },
        { from: '2026-11-08T14:00:00.000Z', to: '2026-11-15T15:00:00.000Z' },
      ),
      0,
      READ_AT,
    );
    expect(line.figures.slice(0, 3).map((f) => `${f.value} ${f.unit}${f.marked ? ' (marked)' : ''}`)).toEqual([
      '1,204 visitors (marked)',
      '1,500 visits',
      '3,402 hits',
    ]);
    expect(line.notes[1]).toBe(
      "* Visitors are counted over 15 Nov – 22 Nov UTC: the stored visitor sketches of that time cover whole UTC days, not the chart's buckets.",
    );
  });

  it("compares no visitors when the previous period's visitors count a span of another length", () => {
    const line = topLine(week({}, { visitorsFrom: '2026-11-06T00:00:00.000Z' }), 0, READ_AT);
    expect(line.figures[0]?.change).toEqual({
      text: '—',
      direction: 'none',
      title:
        "not compared: the previous period's visitors are counted over 6 Nov – 14 Nov UTC, a span of another length",
    });
  });

  it('shows unknown visitors as "—", never as 0', () => {
    expect(
      texts(week({ visitors: null, visitorsFrom: null, visitorsTo: null }, { visitors: null, visitorsChange: null })),
    ).toEqual([
      '— visitors —',
      '1,500 visits ▲ 7 %',
      '3,402 hits ▼ 3 %',
      '2.27 views per visit ▼ 9 %',
      '42 % bounce rate ▲ 2 pp',
      '2m 05s visit duration ▼ 17 %',
    ]);
  });

  it('shows the visit figures of a minute chart as unknown, saying why', () => {
    const line = topLine(week(VISITS_UNKNOWN, VISITS_UNKNOWN), 0, READ_AT);
    expect(line.figures.map((f) => `${f.value} ${f.unit} ${f.change.text}`)).toEqual([
      '1,204 visitors ▲ 12 %',
      '— visits —',
      '3,402 hits ▼ 3 %',
      '— views per visit —',
      '— bounce rate —',
      '— visit duration —',
    ]);
    for (const figure of line.figures.filter((f) => f.value === '—')) {
      expect([figure.key, figure.title]).toEqual([
        figure.key,
        'not known: a minute chart counts visits only inside the second-level retention, and retention may have dropped them',
      ]);
    }
  });

  it('shows no rates over a range without visits', () => {
    const line = topLine(week(NO_VISITS), 0, READ_AT);
    expect(line.figures.map((f) => `${f.value} ${f.unit} ${f.change.text}`).slice(3)).toEqual([
      '— views per visit —',
      '— bounce rate —',
      '— visit duration —',
    ]);
    expect(line.figures[1]?.value).toBe('0');
    expect(line.figures[1]?.change.text).toBe('▼ 100 %');
    expect(line.figures[3]?.title).toBe('no visits in this range');
  });

  it('has no change against a previous period without hits or visits', () => {
    const line = topLine(
      week({}, { total: 0, change: null, visitors: 0, visitorsChange: null, ...NO_VISITS }),
      0,
      READ_AT,
    );
    expect(line.figures.map((f) => f.change.text)).toEqual(['—', '—', '—', '—', '—', '—']);
    expect(line.figures[2]?.change.title).toBe('nothing in the previous period (7 Nov – 14 Nov UTC) to compare with');
    expect(line.figures[1]?.change.title).toBe(
      '0 in the previous period (7 Nov – 14 Nov UTC): nothing to compare with',
    );
    expect(line.figures[3]?.change.title).toBe('no visits known for the previous period');
  });

  it('compares no visit duration with a previous period of zero-length visits', () => {
    const line = topLine(week({}, { visitDuration: 0 }), 0, READ_AT);
    expect(line.figures[5]?.change).toEqual({
      text: '—',
      direction: 'none',
      title: '0s in the previous period (7 Nov – 14 Nov UTC): nothing to compare with',
    });
  });

  it('adds live hits to the hits figure only, and says the others are as read', () => {
    const line = topLine(week(), 105, READ_AT);
    expect(line.figures.map((f) => `${f.value} ${f.unit} ${f.change.text}`)).toEqual([
      '1,204 visitors ▲ 12 %',
      '1,500 visits ▲ 7 %',
      '3,507 hits ± 0 %',
      '2.27 views per visit ▼ 9 %',
      '42 % bounce rate ▲ 2 pp',
      '2m 05s visit duration ▼ 17 %',
    ]);
    expect(line.notes[1]).toBe(
      'Hits include live updates; visitors and the visit figures are as read at 15:04:10 UTC.',
    );
  });

  it('writes one hit, one visitor and one visit in the singular', () => {
    const one = { total: 1, visitors: 1, visits: 1, bounceRate: 1, visitDuration: 0, viewsPerVisit: 1 };
    expect(texts(week(one, one))).toEqual([
      '1 visitor ± 0 %',
      '1 visit ± 0 %',
      '1 hit ± 0 %',
      '1 views per visit ± 0 %',
      '100 % bounce rate ± 0 pp',
      '0s visit duration —',
    ]);
  });
});
