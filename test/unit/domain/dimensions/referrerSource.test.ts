import { DIRECT, INTERNAL, UNKNOWN } from '../../../../src/domain/dimensions/dimensionMarkers';
import { knownSource } from '../../../../src/domain/dimensions/knownSources';
import { referrerSource, sourceHost } from '../../../../src/domain/dimensions/referrerSource';

describe('referrerSource', () => {
  it.each([
    // No referrer
    [undefined, DIRECT],
    ['', DIRECT],
    ['   ', DIRECT],
    // Hosts: lower-case, www. and port and credentials and trailing dot dropped
    ['https://blog.example.org/post?id=1#top', 'blog.example.org'],
    ['https://WWW.Example.ORG/', 'example.org'],
    ['http://example.org:8080/a', 'example.org'],
    ['https://user:secret@example.org/', 'example.org'],
    ['https://example.org./', 'example.org'],
    ['//cdn.example.org/x', 'cdn.example.org'],
    // A host that is an IP address is stored as no source: no IP address is kept in any dimension.
    ['http://192.0.2.1:3000/', UNKNOWN],
    ['http://[2001:db8::1]:8080/', UNKNOWN],
    // IDN: punycode and Unicode are one source, shown in Unicode
    ['https://xn--bcher-kva.de/', 'bücher.de'],
    ['https://bücher.de/', 'bücher.de'],
    ['https://www.xn--mnchen-3ya.de/', 'münchen.de'],
    // Known hosts
    ['https://www.google.com/', 'Google'],
    ['https://www.google.co.uk/', 'Google'],
    ['https://google.com.br/search?q=x', 'Google'],
    ['https://www.google.de/', 'Google'],
    ['https://yandex.ru/search', 'Yandex'],
    ['https://www.bing.com/search?q=tally', 'Bing'],
    ['https://duckduckgo.com/', 'DuckDuckGo'],
    ['https://l.facebook.com/l.php?u=x', 'Facebook'],
    ['https://t.co/abc', 'X (Twitter)'],
    ['https://news.ycombinator.com/item?id=1', 'Hacker News'],
    ['https://mail.google.com/mail/u/0/', 'Gmail'],
    ['https://docs.google.com/document/d/1', 'docs.google.com'],
    // Android apps
    ['android-app://com.google.android.googlequicksearchbox/https/www.google.com', 'Google'],
    ['android-app://com.google.android.gm/', 'Gmail'],
    ['android-app://org.example.reader/', 'org.example.reader'],
    // Garbage and schemes that name no site
    ['garbage', UNKNOWN],
    ['example.org/page', UNKNOWN],
    ['about:blank', UNKNOWN],
    ['file:///home/me/page.html', UNKNOWN],
    ['chrome-extension://abcdef/popup.html', UNKNOWN],
    ['https://', UNKNOWN],
    ['https://www./', UNKNOWN],
    ['http://exa mple.org/', UNKNOWN],
  ])('%j is source %j', (referrer, source) => {
    expect(referrerSource(referrer, 'tally.example.com')).toBe(source);
  });

  it.each([
    ['https://tally.example.com/pricing', 'tally.example.com'],
    ['https://www.tally.example.com/', 'tally.example.com'],
    ['https://TALLY.example.com:443/', 'tally.example.com'],
    ['https://tally.example.com/', 'www.tally.example.com'],
    ['https://xn--bcher-kva.de/', 'bücher.de'],
  ])('a referrer from the site itself (%j on site %j) is internal', (referrer, site) => {
    expect(referrerSource(referrer, site)).toBe(INTERNAL);
  });

  it('counts a referrer from the page URL host as internal when the site is not a host name', () => {
    expect(referrerSource('https://shop.example.net/cart', 'my-shop', 'shop.example.net')).toBe(INTERNAL);
    expect(referrerSource('https://other.example.net/', 'my-shop', 'shop.example.net')).toBe('other.example.net');
  });

  it('keeps a subdomain of the site apart: only the same host is internal', () => {
    expect(referrerSource('https://blog.example.com/', 'example.com')).toBe('blog.example.com');
  });

  it('cuts a host longer than 253 characters', () => {
    const host = `${'a'.repeat(60)}.`.repeat(5) + 'example';
    expect(referrerSource(`https://${host}/`, 'x')).toBe(host.slice(0, 253));
  });
});

describe('sourceHost', () => {
  it.each([
    ['WWW.Example.com.', 'example.com'],
    ['example.com:8080', 'example.com'],
    ['[2001:db8::1]', '[2001:db8::1]'],
    ['xn--bcher-kva.de', 'bücher.de'],
    ['wwwexample.com', 'wwwexample.com'],
  ])('%j → %j', (host, expected) => {
    expect(sourceHost(host)).toBe(expected);
  });
});

describe('knownSource', () => {
  it.each([
    ['google.com', 'Google'],
    ['google.co.jp', 'Google'],
    ['google.com.au', 'Google'],
    ['yandex.com.tr', 'Yandex'],
    ['notgoogle.com', undefined],
    ['google.example.com', undefined],
    ['images.google.com', undefined],
  ])('%j is %j', (host, name) => {
    expect(knownSource(host)).toBe(name);
  });
});
