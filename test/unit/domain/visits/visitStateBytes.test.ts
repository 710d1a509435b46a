import { BSON } from 'mongodb';
import type { DimensionValues } from '../../../../src/domain/dimensions/Dimension';
import type { VisitState } from '../../../../src/domain/visits/VisitState';
import { decodeVisitState, encodeVisitState } from '../../../../src/domain/visits/visitStateBytes';

const AT = Date.parse('2028-02-29T23:59:59.999Z');
const DIMENSIONS: DimensionValues = {
  source: 'Google',
  utmSource: '(none)',
  utmMedium: '(none)',
  utmCampaign: '(none)',
  browser: 'Safari',
  os: 'iOS',
  device: 'mobile',
  country: 'FR',
};
const base: VisitState = {
  start: AT,
  last: AT,
  entry: '/articles/0001.html',
  exit: '/articles/0001.html',
  views: 1,
  bounced: true,
  dimensions: DIMENSIONS,
  seen: [0x811c9dc5],
};

describe('visit state bytes', () => {
  it.each<[string, VisitState]>([
    ['one pageview with dimensions', base],
    ['no dimensions', { ...base, dimensions: undefined }],
    ['an exit elsewhere, many views, not bounced', { ...base, exit: '/b', views: 300, bounced: false }],
    ['a latest hit an hour on', { ...base, last: AT + 3_600_000 }],
    ['a latest hit before the first (kept as given)', { ...base, last: AT - 1 }],
    ['the epoch', { ...base, start: 0, last: 0 }],
    ['no pages seen', { ...base, seen: [] }],
    [
      '64 pages seen, the extreme hashes',
      { ...base, seen: [0, 0xffffffff, ...Array.from({ length: 62 }, (_, i) => i * 0x4000001)] },
    ],
    [
      'non-ASCII pages and values',
      { ...base, entry: '/café/日本', exit: '/😀', dimensions: { ...DIMENSIONS, source: 'bücher.de' } },
    ],
    ['empty strings', { ...base, entry: '', exit: '', dimensions: { ...DIMENSIONS, source: '' } }],
  ])('reads back what it wrote: %s', (_, state) => {
    expect(decodeVisitState(encodeVisitState(state))).toEqual(state);
  });

  it('is the pinned layout (a stored state must read the same after any change)', () => {
    const bytes = encodeVisitState({
      ...base,
      start: 1_000,
      last: 1_300,
      exit: '/x',
      views: 2,
      bounced: false,
      seen: [1, 0x01020304],
    });
    const strings = (...values: string[]) => values.flatMap((v) => [v.length, ...Buffer.from(v)]);
    expect([...bytes]).toEqual([
      1, // version
      0xe8,
      0x07, // start 1,000
      0xd8,
      0x04, // last − start, zigzag: 600
      2, // views
      4, // flags: dimensions, not bounced, exit elsewhere
      ...strings('/articles/0001.html', '/x'),
      2,
      1,
      0,
      0,
      0,
      4,
      3,
      2,
      1, // pages seen, little-endian
      8, // dimension values, in DIMENSIONS order
      ...strings('Google', '(none)', '(none)', '(none)', 'Safari', 'iOS', 'mobile', 'FR'),
    ]);
  });

  it.each(['\u007f', '\u0080', 'abc\u00e9', '/x\u{1f600}', '\ud800', 'plain/ascii-path.html'])(
    'writes %j as its UTF-8 bytes, as an encoder would',
    (value) => {
      const state = { ...base, start: 1_000, last: 1_000, entry: value, exit: value, dimensions: undefined, seen: [] };
      const bytes = encodeVisitState(state);
      const utf8 = [...Buffer.from(value, 'utf8')];
      // version, start (2 bytes), last − start, views, flags, then the entry: its byte length and its bytes.
      expect([...bytes.subarray(6, 7 + utf8.length)]).toEqual([utf8.length, ...utf8]);
    },
  );

  it("takes under half the bytes of the fields' BSON it replaces", () => {
    const bson = BSON.serialize({
      s: base.start,
      l: base.last,
      e: base.entry,
      x: base.exit,
      n: 1,
      b: true,
      d: DIMENSIONS,
      g: base.seen,
    });
    expect(encodeVisitState(base).length).toBeLessThan(bson.length / 2);
  });

  it.each<[string, number[], RegExp]>([
    ['another version', [2], /layout version 2, not 1/],
    ['nothing', [], /layout version undefined/],
    ['a cut number', [1, 0x80], /ends inside a number/],
    ['no flags', [1, 0, 0, 1], /ends before its flags/],
    ['a cut string', [1, 0, 0, 1, 2, 5, 0x2f], /ends inside a string/],
    ['cut pages seen', [1, 0, 0, 1, 2, 1, 0x2f, 2, 1, 2, 3, 4], /ends inside its pages seen/],
    ['another list of dimensions', [1, 0, 0, 1, 6, 1, 0x2f, 0, 9], /holds 9 dimension values, this version counts 8/],
    ['bytes past the end', [1, 0, 0, 1, 2, 1, 0x2f, 0, 0], /1 bytes past its end/],
    ['bad UTF-8', [1, 0, 0, 1, 2, 1, 0xff, 0], /./],
  ])('refuses %s', (_, bytes, message) => {
    expect(() => decodeVisitState(Uint8Array.from(bytes))).toThrow(message);
  });
});
