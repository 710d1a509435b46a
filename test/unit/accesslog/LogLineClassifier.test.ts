import { compileLogFormat } from '../../../src/accesslog/compileLogFormat';
import { DEFAULT_ASSET_EXTENSIONS, LOG_FILTERS, LogLineClassifier } from '../../../src/accesslog/LogLineClassifier';
import type { LogFilter } from '../../../src/accesslog/LogLineClassifier';
import { lineVisitor } from '../../../src/accesslog/lineVisitor';
import { createHash } from 'node:crypto';

const NOW = Date.UTC(2026, 10, 22, 12);
const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

function classifier(
  options: {
    site?: string;
    filters?: LogFilter[];
    keepQuery?: boolean;
    format?: string;
    visitors?: boolean;
    dimensions?: boolean;
  } = {},
) {
  return new LogLineClassifier({
    formats: options.format
      ? [compileLogFormat(options.format)]
      : [compileLogFormat('combined'), compileLogFormat('common', { exactEnd: true })],
    site: options.site ?? 'example.com',
    keepQuery: options.keepQuery ?? false,
    filters: new Set(options.filters ?? LOG_FILTERS),
    assetExtensions: new Set(DEFAULT_ASSET_EXTENSIONS),
    now: NOW,
    maxClockSkewMs: 300_000,
    visitors: options.visitors,
    dimensions: options.dimensions,
  });
}

function line(request: string, status = 200, ua = UA, time = '22/Nov/2026:10:00:00 +0100'): string {
  return `198.51.100.4 - - [${time}] "${request}" ${status} 512 "-" "${ua}"`;
}

describe('LogLineClassifier', () => {
  it.each([
    [
      line('GET /pricing HTTP/1.1'),
      { kind: 'hit', hit: { site: 'example.com', page: '/pricing', at: Date.UTC(2026, 10, 22, 9), count: 1 } },
    ],
    [
      line('GET /docs?ref=hn HTTP/1.1', 304),
      { kind: 'hit', hit: { site: 'example.com', page: '/docs', at: Date.UTC(2026, 10, 22, 9), count: 1 } },
    ],
    [line('GET /gone HTTP/1.1', 404), { kind: 'filtered', filter: 'status' }],
    [line('GET /boom HTTP/1.1', 500), { kind: 'filtered', filter: 'status' }],
    [line('GET /continue HTTP/1.1', 101), { kind: 'filtered', filter: 'status' }],
    [line('POST /form HTTP/1.1'), { kind: 'filtered', filter: 'method' }],
    [line('HEAD / HTTP/1.1'), { kind: 'filtered', filter: 'method' }],
    [line('GET /static/app.JS?v=3 HTTP/1.1'), { kind: 'filtered', filter: 'asset' }],
    [line('GET /favicon.ico HTTP/1.1'), { kind: 'filtered', filter: 'asset' }],
    [
      line('GET /v1.2/docs HTTP/1.1'),
      { kind: 'hit', hit: { site: 'example.com', page: '/v1.2/docs', at: Date.UTC(2026, 10, 22, 9), count: 1 } },
    ],
    [
      line('GET / HTTP/1.1', 200, 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'),
      { kind: 'filtered', filter: 'bot' },
    ],
    [line('GET / HTTP/1.1', 200, '-'), { kind: 'filtered', filter: 'bot' }],
    [
      line('GET /%00 HTTP/1.1'),
      { kind: 'invalid', reason: 'page must not contain control characters, got "/\\u0000"' },
    ],
    [
      line(`GET /${'a'.repeat(2100)} HTTP/1.1`),
      { kind: 'invalid', reason: 'page must be at most 2048 characters, got 2101' },
    ],
    [
      line('GET / HTTP/1.1', 200, UA, '22/Nov/2026:13:00:00 +0000'),
      {
        kind: 'invalid',
        reason:
          'at must be no later than 2026-11-22T12:05:00.000Z (server clock plus 300000 ms), got 2026-11-22T13:00:00.000Z',
      },
    ],
    [
      line('\\x16\\x03\\x01\\x00\\xA5\\x01', 400),
      { kind: 'unparseable', reason: 'bad $request "\\\\x16\\\\x03\\\\x01\\\\x00\\\\xA5\\\\x01"' },
    ],
    [
      '198.51.100.4 - - [22/Nov/2026:10:00:00 +0100] "GET /common HTTP/1.0" 200 512',
      { kind: 'hit', hit: { site: 'example.com', page: '/common', at: Date.UTC(2026, 10, 22, 9), count: 1 } },
    ],
  ])('%s → %j', (text, outcome) => {
    expect(classifier().classify(text)).toEqual(outcome);
  });

  it('applies filters in order, each only when switched on', () => {
    const text = line('POST /app.js HTTP/1.1', 500, 'curl/8.5.0');
    expect(classifier().classify(text)).toEqual({ kind: 'filtered', filter: 'status' });
    expect(classifier({ filters: ['method', 'asset', 'bot'] }).classify(text)).toEqual({
      kind: 'filtered',
      filter: 'method',
    });
    expect(classifier({ filters: ['asset', 'bot'] }).classify(text)).toEqual({ kind: 'filtered', filter: 'asset' });
    expect(classifier({ filters: ['bot'] }).classify(text)).toEqual({ kind: 'filtered', filter: 'bot' });
    expect(classifier({ filters: [] }).classify(text)).toMatchObject({ kind: 'hit', hit: { page: '/app.js' } });
  });

  it('keeps the query string when asked', () => {
    expect(classifier({ keepQuery: true }).classify(line('GET /s?q=a%20b HTTP/1.1'))).toMatchObject({
      kind: 'hit',
      hit: { page: '/s?q=a%20b' },
    });
  });

  it('names the site from the virtual host when no site is given', () => {
    const options = {
      formats: [compileLogFormat('$host [$time_local] "$request" $status')],
      site: undefined,
      keepQuery: false,
      filters: new Set(LOG_FILTERS),
      assetExtensions: new Set(DEFAULT_ASSET_EXTENSIONS),
      now: NOW,
      maxClockSkewMs: 0,
    };
    const c = new LogLineClassifier(options);
    expect(c.classify('Blog.Example.com:443 [22/Nov/2026:10:00:00 +0100] "GET /p HTTP/1.1" 200')).toMatchObject({
      kind: 'hit',
      hit: { site: 'blog.example.com', page: '/p' },
    });
    const mapped = new LogLineClassifier({
      ...options,
      hostSites: new Map([['www.example.com', 'example.com']]),
    });
    expect(mapped.classify('WWW.example.com [22/Nov/2026:10:00:00 +0100] "GET /p HTTP/1.1" 200')).toMatchObject({
      kind: 'hit',
      hit: { site: 'example.com' },
    });
    expect(c.classify('- [22/Nov/2026:10:00:00 +0100] "GET /p HTTP/1.1" 200')).toEqual({
      kind: 'invalid',
      reason: 'no site: the line has no host and --site is not set',
    });
  });
});

describe('visitor and dimension inputs of a line', () => {
  const both = { visitors: true, dimensions: true };
  const combined = (request: string, referrer: string, ua: string, address = '198.51.100.4') =>
    `${address} - - [22/Nov/2026:10:00:00 +0100] "${request}" 200 512 "${referrer}" "${ua}"`;

  it('carries the referrer, User-Agent, normalised address, UTM values of the dropped query and a visitor', () => {
    const outcome = classifier(both).classify(
      combined(
        'GET /l?utm_source=News&utm_campaign=Fall HTTP/1.1',
        'https://www.google.com/',
        UA,
        '::ffff:198.51.100.4',
      ),
    );
    expect(outcome).toEqual({
      kind: 'hit',
      hit: {
        site: 'example.com',
        page: '/l',
        at: Date.UTC(2026, 10, 22, 9),
        count: 1,
        visitor: lineVisitor('198.51.100.4', UA, Date.UTC(2026, 10, 22, 9)),
        referrer: 'https://www.google.com/',
        userAgent: UA,
        clientIp: '198.51.100.4',
        utm: { utmSource: 'news', utmMedium: '(none)', utmCampaign: 'Fall' },
      },
    });
  });

  it('leaves UTM values in a kept query to the server, and sends none for a query without them', () => {
    const kept = classifier({ ...both, keepQuery: true }).classify(combined('GET /l?utm_source=x HTTP/1.1', '-', UA));
    expect(kept).toMatchObject({ kind: 'hit', hit: { page: '/l?utm_source=x', utm: undefined, referrer: undefined } });
    const plain = classifier(both).classify(combined('GET /l?q=1 HTTP/1.1', '-', UA));
    expect(plain).toMatchObject({ kind: 'hit', hit: { utm: undefined } });
  });

  it('unescapes logged values, cuts over-long ones and leaves out a malformed address, so the server accepts them', () => {
    const referrer = `https://r.example/${'z'.repeat(5000)}`;
    const outcome = classifier(both).classify(combined('GET / HTTP/1.1', referrer, `${UA} \\"quoted\\"`, 'unknown'));
    expect(outcome).toMatchObject({
      kind: 'hit',
      hit: { userAgent: `${UA} "quoted"`, clientIp: undefined, visitor: undefined },
    });
    expect(outcome.kind === 'hit' && outcome.hit.referrer).toBe(referrer.slice(0, 4096));
  });

  it('sends visitors without dimension inputs, or neither', () => {
    const text = combined('GET /l?utm_source=x HTTP/1.1', 'https://a.example/', UA);
    const visitorsOnly = classifier({ visitors: true }).classify(text);
    expect(visitorsOnly).toEqual({
      kind: 'hit',
      hit: {
        site: 'example.com',
        page: '/l',
        at: Date.UTC(2026, 10, 22, 9),
        count: 1,
        visitor: lineVisitor('198.51.100.4', UA, Date.UTC(2026, 10, 22, 9)),
      },
    });
    expect(classifier().classify(text)).toEqual({
      kind: 'hit',
      hit: { site: 'example.com', page: '/l', at: Date.UTC(2026, 10, 22, 9), count: 1 },
    });
  });
});

describe('lineVisitor', () => {
  it('is hex(sha256) of address, User-Agent and UTC day: the same all day, another the next', () => {
    const at = Date.UTC(2026, 10, 22, 0, 0, 0);
    const expected = createHash('sha256')
      .update(JSON.stringify(['198.51.100.4', UA, '2026-11-22']))
      .digest('hex');
    expect(lineVisitor('198.51.100.4', UA, at)).toBe(expected);
    expect(lineVisitor('198.51.100.4', UA, at + 86_399_999)).toBe(expected);
    expect(lineVisitor('198.51.100.4', UA, at + 86_400_000)).not.toBe(expected);
    expect(lineVisitor('198.51.100.4', undefined, at)).not.toBe(expected);
  });
});

describe('the malformed-line corpus', () => {
  const good = line('GET /ok HTTP/1.1');
  const junk = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37 + 11) % 256)).toString('latin1');
  const corpus: Array<[string, string]> = [
    ['empty', ''],
    ['whitespace', '   \t  '],
    ['truncated after the address', '198.51.100.4 - -'],
    ['truncated in the date', '198.51.100.4 - - [22/Nov/2026:10:0'],
    ['truncated in the request', good.slice(0, 60)],
    ['truncated in the user agent', good.slice(0, good.length - 10)],
    ['bad day', line('GET / HTTP/1.1', 200, UA, '32/Nov/2026:10:00:00 +0100')],
    ['bad month', line('GET / HTTP/1.1', 200, UA, '22/Foo/2026:10:00:00 +0100')],
    ['bad offset', line('GET / HTTP/1.1', 200, UA, '22/Nov/2026:10:00:00 +9999')],
    ['30 February', line('GET / HTTP/1.1', 200, UA, '30/Feb/2026:10:00:00 +0100')],
    ['date in another format', line('GET / HTTP/1.1', 200, UA, '2026-11-22T10:00:00+01:00 ')],
    ['binary junk', junk],
    ['NUL bytes', '\u0000\u0000\u0000'],
    [
      'TLS handshake logged by nginx',
      '198.51.100.4 - - [22/Nov/2026:10:00:00 +0100] "\\x16\\x03\\x01\\x02\\x00\\x01" 400 157 "-" "-"',
    ],
    ['100 KB line', `198.51.100.4 - - [22/Nov/2026:10:00:00 +0100] "GET /${'x'.repeat(100 * 1024)}`],
    ['100 KB user agent', line('GET / HTTP/1.1', 200, 'y'.repeat(100 * 1024)).slice(0, -1)],
    ['status missing', '198.51.100.4 - - [22/Nov/2026:10:00:00 +0100] "GET / HTTP/1.1" - 512 "-" "x"'],
  ];

  it.each(corpus)('%s is unparseable, with a reason, and never throws', (_, text) => {
    const outcome = classifier().classify(text);
    expect(outcome.kind).toBe('unparseable');
    expect(outcome.kind === 'unparseable' && outcome.reason.length > 0).toBe(true);
  });

  it('reads a complete 100 KB line (a long referrer) and refuses its page only if tally would', () => {
    const long = `198.51.100.4 - - [22/Nov/2026:10:00:00 +0100] "GET / HTTP/1.1" 200 1 "https://r.example/${'z'.repeat(100 * 1024)}" "${UA}"`;
    expect(classifier().classify(long)).toMatchObject({ kind: 'hit', hit: { page: '/' } });
    expect(classifier().classify(line(`GET /${'p'.repeat(100 * 1024)} HTTP/1.1`))).toMatchObject({ kind: 'invalid' });
  });
});
