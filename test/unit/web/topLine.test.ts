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
      ...comparison,
    },
    ...overrides,
  };
}

const texts = (site: SiteResult, liveHits = 0): string[] =>
  topLine(site, liveHits, READ_AT).figures.map((f) => `${f.value} ${f.unit} ${f.change.text}`);

describe('the top-line figures', () => {
  it('shows hits dropped by retention as unknown, never as a zero, and computes nothing from them', () => {
    const line = topLine(week({ total: null }, { total: null }), 12, READ_AT);
    const [, hits, ratio] = line.figures;
    expect(hits?.value).toBe('—');
    expect(hits?.change.direction).toBe('none');
    expect(hits?.title).toMatch(/retention/);
    expect(ratio?.value).toBe('—');
  });

  it('shows visitors, hits and hits per visitor, each against the previous period', () => {
    const line = topLine(week(), 0, READ_AT);
    expect(line.figures.map((f) => `${f.value} ${f.unit} ${f.change.text}`)).toEqual([
      '1,204 visitors ▲ 12 %',
      '3,402 hits ▼ 3 %',
      // 3402 / 1204 = 2.83 against 3507 / 1075 = 3.26: -13 %.
      '2.83 hits per visitor ▼ 13 %',
    ]);
    expect(line.figures.map((f) => f.change.direction)).toEqual(['up', 'down', 'down']);
    expect(line.figures[0]?.change.title).toBe('against 1,075 in the previous period, 7 Nov – 14 Nov UTC');
    expect(line.notes).toEqual(['15 Nov – 22 Nov UTC, against the previous period 7 Nov – 14 Nov UTC.']);
  });

  it('says when the visitors count a wider span than the hits, and computes no ratio across the two', () => {
    const line = topLine(
      week(
        { from: '2026-11-15T15:00:00.000Z', to: '2026-11-22T16:00:00.000Z' },
        { from: '2026-11-08T14:00:00.000Z', to: '2026-11-15T15:00:00.000Z' },
      ),
      0,
      READ_AT,
    );
    expect(line.figures.map((f) => `${f.value} ${f.unit}${f.marked ? ' (marked)' : ''} ${f.change.text}`)).toEqual([
      '1,204 visitors (marked) ▲ 12 %',
      '3,402 hits ▼ 3 %',
      '— hits per visitor —',
    ]);
    expect(line.notes[1]).toBe(
      "* Visitors are counted over 15 Nov – 22 Nov UTC: the stored visitor sketches of that time cover whole UTC days, not the chart's buckets.",
    );
    expect(line.figures[2]?.title).toBe('not computed: hits and visitors are counted over different spans (see *)');
  });

  it("compares no visitors when the previous period's visitors count a span of another length", () => {
    const line = topLine(week({}, { visitorsFrom: '2026-11-06T00:00:00.000Z' }), 0, READ_AT);
    expect(line.figures[0]?.change).toEqual({
      text: '—',
      direction: 'none',
      title:
        "not compared: the previous period's visitors are counted over 6 Nov – 14 Nov UTC, a span of another length",
    });
    // Its hits per visitor would mix spans too.
    expect(line.figures[2]?.change.text).toBe('—');
  });

  it('shows unknown visitors as "—", never as 0', () => {
    expect(
      texts(week({ visitors: null, visitorsFrom: null, visitorsTo: null }, { visitors: null, visitorsChange: null })),
    ).toEqual(['— visitors —', '3,402 hits ▼ 3 %', '— hits per visitor —']);
  });

  it('has no change against a previous period without hits', () => {
    const line = topLine(week({}, { total: 0, change: null, visitors: 0, visitorsChange: null }), 0, READ_AT);
    expect(line.figures.map((f) => f.change.text)).toEqual(['—', '—', '—']);
    expect(line.figures[1]?.change.title).toBe('nothing in the previous period (7 Nov – 14 Nov UTC) to compare with');
  });

  it('adds live hits to the hits figure only, and says the others are as read', () => {
    const line = topLine(week(), 105, READ_AT);
    expect(line.figures.map((f) => `${f.value} ${f.unit} ${f.change.text}`)).toEqual([
      '1,204 visitors ▲ 12 %',
      '3,507 hits ± 0 %',
      '2.83 hits per visitor ▼ 13 %',
    ]);
    expect(line.notes[1]).toBe('Hits include live updates; visitors and hits per visitor are as read at 15:04:10 UTC.');
  });

  it('writes one hit and one visitor in the singular', () => {
    expect(texts(week({ total: 1, visitors: 1 }, { total: 1, visitors: 1 }))).toEqual([
      '1 visitor ± 0 %',
      '1 hit ± 0 %',
      '1 hits per visitor ± 0 %',
    ]);
  });
});
