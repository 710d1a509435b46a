import { siteFromHost } from '../../../src/accesslog/LogLineClassifier';
import { requestPage, splitRequestLine } from '../../../src/accesslog/requestPage';

describe('splitRequestLine', () => {
  it.each([
    ['GET /a HTTP/1.1', { method: 'GET', target: '/a' }],
    ['GET /a', { method: 'GET', target: '/a' }],
    ['POST http://example.com/x?y HTTP/1.0', { method: 'POST', target: 'http://example.com/x?y' }],
    ['', undefined],
    ['-', undefined],
    ['GET', undefined],
    ['GET /a b HTTP/1.1', undefined],
    ['\\x16\\x03\\x01\\x02\\x00\\x01\\x00', undefined],
  ])('%j → %j', (request, expected) => {
    expect(splitRequestLine(request)).toEqual(expected);
  });
});

describe('requestPage', () => {
  it.each([
    ['/pricing', false, '/pricing'],
    ['/docs/intro?ref=hn', false, '/docs/intro'],
    ['/docs/intro?ref=hn', true, '/docs/intro?ref=hn'],
    ['/caf%C3%A9', false, '/café'],
    ['/a%20b?q=%20', true, '/a b?q=%20'],
    ['/caf\\xC3\\xA9', false, '/café'],
    ['/\\x22quoted\\x22', false, '/"quoted"'],
    ['http://example.com/abs/path?x', false, '/abs/path'],
    ['https://example.com', false, '/'],
    ['/page#frag', false, '/page'],
    ['/%E6%97%A5%E6%9C%AC', false, '/日本'],
    ['/a%2Fb', false, '/a/b'],
  ])('%j (keep query: %s) → %j', (target, keepQuery, page) => {
    expect(requestPage(target, keepQuery)).toEqual({ ok: true, page });
  });

  it('appends $args when the target has no query and queries are kept', () => {
    expect(requestPage('/search', true, 'q=1')).toEqual({ ok: true, page: '/search?q=1' });
    expect(requestPage('/search', false, 'q=1')).toEqual({ ok: true, page: '/search' });
  });

  it.each([
    ['*', 'request target is not a path: "*"'],
    ['example.com:443', 'request target is not a path: "example.com:443"'],
    ['/%zz', 'malformed UTF-8 or percent-encoding in "/%zz"'],
    ['/%C0%AE', 'malformed UTF-8 or percent-encoding in "/%C0%AE"'],
    ['/\\xff\\xfe', 'malformed UTF-8 or percent-encoding in "/\u00ff\u00fe"'],
  ])('refuses %j: %s', (target, reason) => {
    expect(requestPage(target, false)).toEqual({ ok: false, reason });
  });
});

describe('siteFromHost', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Example.COM:8080', 'example.com'],
    ['example.com.', 'example.com'],
    ['[2001:db8::1]:443', '[2001:db8::1]'],
    [undefined, undefined],
  ])('%j → %j', (host, site) => {
    expect(siteFromHost(host)).toBe(site);
  });
});
