import type { Series } from '../../../src/query/Series';
import { BREAKDOWN_COLUMNS, breakdownRows, exportHeader, exportRows } from '../../../src/server/exportFormats';
import { Granularity } from '../../../src/time/Granularity';

const ms = (iso: string): number => Date.parse(iso);

function series(site: string, page: string, timeZone: string): Series {
  const t0 = ms('2026-03-29T00:00:00Z');
  return {
    request: { site, page, granularity: Granularity.HOUR, from: t0, to: t0 + 7_200_000, timeZone },
    from: t0,
    to: t0 + 7_200_000,
    total: 3,
    points: [
      { t: t0, hits: 1, visitors: null },
      { t: t0 + 3_600_000, hits: 2, visitors: 2 },
    ],
  };
}

describe('export formats', () => {
  it('writes CSV with a byte order mark, CRLF and offsets across a DST change, visitors empty where null', () => {
    expect(exportHeader('csv')).toBe(
      '\uFEFFstart,end,hits,site,page,visitors,visits,bounceRate,visitDuration,viewsPerVisit\r\n',
    );
    expect(exportRows('csv', series('example.com', '/a', 'Europe/Berlin'))).toBe(
      '2026-03-29T01:00:00+01:00,2026-03-29T03:00:00+02:00,1,example.com,/a,,,,,\r\n' +
        '2026-03-29T03:00:00+02:00,2026-03-29T04:00:00+02:00,2,example.com,/a,2,,,,\r\n',
    );
  });

  it('leaves hits empty (CSV) or null (NDJSON) where retention dropped the counters', () => {
    const t0 = ms('2026-03-29T00:00:00Z');
    const dropped: Series = {
      ...series('s', '/a', 'UTC'),
      to: t0 + 3_600_000,
      total: null,
      points: [{ t: t0, hits: null }],
    };
    expect(exportRows('csv', dropped)).toBe('2026-03-29T00:00:00+00:00,2026-03-29T01:00:00+00:00,,s,/a,,,,,\r\n');
    expect(JSON.parse(exportRows('ndjson', dropped))).toMatchObject({ hits: null, visitors: null });
  });

  it.each([
    ['/a,b', '"/a,b"'],
    ['/say "hi"', '"/say ""hi"""'],
    ['/plain', '/plain'],
  ])('quotes the page %j as %s', (page, cell) => {
    expect(exportRows('csv', series('s', page, 'UTC')).split('\r\n')[0]).toBe(
      `2026-03-29T00:00:00+00:00,2026-03-29T01:00:00+00:00,1,s,${cell},,,,,`,
    );
  });

  it.each([
    ['=cmd', "'=cmd"],
    ['+1', "'+1"],
    ['-x', "'-x"],
    ['@sum', "'@sum"],
  ])('keeps a spreadsheet from running site %j as a formula', (site, cell) => {
    expect(exportRows('csv', series(site, '/a', 'UTC')).split(',')[3]).toBe(cell);
  });

  it('writes NDJSON objects with the same columns, site totals with an empty page', () => {
    expect(exportHeader('ndjson')).toBe('');
    const lines = exportRows('ndjson', series('s', '', 'Asia/Kathmandu'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(lines[0]).toEqual({
      start: '2026-03-29T05:45:00+05:45',
      end: '2026-03-29T06:45:00+05:45',
      hits: 1,
      site: 's',
      page: '',
      visitors: null,
      visits: null,
      bounceRate: null,
      visitDuration: null,
      viewsPerVisit: null,
    });
    expect(lines[1]).toMatchObject({ hits: 2, visitors: 2 });
  });
});

describe('breakdown export format', () => {
  const rows = [
    // Visit counters: 4 visits, 1 bounce, 360 s, 10 pageviews.
    {
      value: 'Google',
      hits: 5,
      visitors: 3,
      visits: { visits: 4, entered: 4, bounces: 1, seconds: 360, pageviews: 10, exits: 0 },
    },
    { value: '=cmd, "x"', hits: 2, visitors: null },
  ];

  it('writes value, hits, visitors and visit figures, quoting values and leaving unknown ones empty', () => {
    expect(exportHeader('csv', BREAKDOWN_COLUMNS)).toBe(
      '\uFEFFvalue,hits,visitors,visits,bounceRate,visitDuration,viewsPerVisit\r\n',
    );
    expect(breakdownRows('csv', rows)).toBe(`Google,5,3,4,0.25,90,2.5\r\n"'=cmd, ""x""",2,,,,,\r\n`);
  });

  it('writes NDJSON objects with null visitors and visit figures where unknown', () => {
    const lines = breakdownRows('ndjson', rows)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(lines).toEqual([
      { value: 'Google', hits: 5, visitors: 3, visits: 4, bounceRate: 0.25, visitDuration: 90, viewsPerVisit: 2.5 },
      {
        value: '=cmd, "x"',
        hits: 2,
        visitors: null,
        visits: null,
        bounceRate: null,
        visitDuration: null,
        viewsPerVisit: null,
      },
    ]);
  });
});
