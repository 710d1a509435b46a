/**
 * Real inputs for the acceptance tests of visitors and dimensions (issues 19, 20), each with the values it must
 * count under, pinned by hand: User-Agents as the bundled parser answered them once, addresses as the bundled
 * country database (@ip-location-db/geo-whois-asn-country-mmdb) placed them once, referrers by the documented rules.
 * The independent half of every recount: nothing here calls tally's code. A data update that moves an address to
 * another country fails the tests that use it, on purpose.
 */

export interface UserAgentCase {
  readonly userAgent: string;
  readonly browser: string;
  readonly os: string;
  readonly device: string;
}

export const USER_AGENTS = {
  chromeWindows: {
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    browser: 'Chrome',
    os: 'Windows',
    device: 'desktop',
  },
  edgeWindows: {
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    browser: 'Edge',
    os: 'Windows',
    device: 'desktop',
  },
  firefoxLinux: {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
    browser: 'Firefox',
    os: 'Linux',
    device: 'desktop',
  },
  safariMac: {
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
    browser: 'Safari',
    os: 'macOS',
    device: 'desktop',
  },
  safariIphone: {
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    browser: 'Safari',
    os: 'iOS',
    device: 'mobile',
  },
  safariIpad: {
    userAgent:
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    browser: 'Safari',
    os: 'iPadOS',
    device: 'tablet',
  },
  chromeAndroid: {
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    browser: 'Chrome',
    os: 'Android',
    device: 'mobile',
  },
  samsungTablet: {
    userAgent:
      'Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Safari/537.36',
    browser: 'Samsung Internet',
    os: 'Android',
    device: 'tablet',
  },
} as const satisfies Record<string, UserAgentCase>;

export type UserAgentName = keyof typeof USER_AGENTS;

/** Browsers, one per name, for picking at random. */
export const BROWSER_NAMES = Object.keys(USER_AGENTS) as UserAgentName[];

/** User-Agents isbot recognises: the beacon answers them without counting, the importer filters them. */
export const BOT_USER_AGENTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'curl/8.5.0',
] as const;

/** A User-Agent no parser places: counted under `(unknown)` for browser, OS and device. */
export const UNPARSEABLE_USER_AGENT = {
  userAgent: 'TallyAcceptance/1.0',
  browser: '(unknown)',
  os: '(unknown)',
  device: '(unknown)',
};

export interface ClientIpCase {
  readonly ip: string;
  readonly country: string;
}

/** Public addresses of registries and resolvers, IPv4 and IPv6, and where the bundled database puts them. */
export const PUBLIC_CLIENT_IPS: readonly ClientIpCase[] = [
  { ip: '193.0.6.139', country: 'NL' },
  { ip: '2001:67c:2e8:22::c100:68b', country: 'NL' },
  { ip: '81.169.145.1', country: 'DE' },
  { ip: '80.67.169.12', country: 'FR' },
  { ip: '133.242.0.3', country: 'JP' },
  { ip: '200.160.2.3', country: 'BR' },
  { ip: '2001:12ff::1', country: 'BR' },
  { ip: '196.216.2.1', country: 'ZA' },
  { ip: '8.8.8.8', country: 'US' },
  { ip: '2001:4860:4860::8888', country: 'US' },
];

/** Addresses that locate no one (private, shared, unique-local, loopback, documentation): `(unknown)`. */
export const PRIVATE_CLIENT_IPS: readonly ClientIpCase[] = [
  { ip: '192.168.1.5', country: '(unknown)' },
  { ip: '10.1.2.3', country: '(unknown)' },
  { ip: '100.64.0.1', country: '(unknown)' },
  { ip: 'fd00::1', country: '(unknown)' },
  { ip: '203.0.113.7', country: '(unknown)' },
];

export const CLIENT_IPS: readonly ClientIpCase[] = [...PUBLIC_CLIENT_IPS, ...PRIVATE_CLIENT_IPS];

export interface ReferrerCase {
  /** The referrer as a browser sends it; undefined for none. */
  readonly url: string | undefined;
  readonly source: string;
  /** A part of the URL that is not its source: it must never be stored. */
  readonly secret?: string;
}

/**
 * Referrers from other sites, and what the source dimension makes of them: known hosts named (google.* is Google),
 * others their host without `www.` or port, lower-cased; none is `(direct)`, a non-URL `(unknown)`.
 */
export const EXTERNAL_REFERRERS: readonly ReferrerCase[] = [
  { url: 'https://www.google.de/search?q=tally+visitor+privacy', source: 'Google', secret: 'tally+visitor+privacy' },
  { url: 'https://news.ycombinator.com/item?id=4242424', source: 'Hacker News', secret: 'id=4242424' },
  { url: 'android-app://com.reddit.frontpage/', source: 'Reddit' },
  { url: 'https://t.co/AcceptanceXyz', source: 'X (Twitter)', secret: 'AcceptanceXyz' },
  {
    url: 'https://Blog.Example.org:8443/2026/10/a-review?from=feed',
    source: 'blog.example.org',
    secret: '2026/10/a-review',
  },
  { url: undefined, source: '(direct)' },
  { url: 'not a url at all', source: '(unknown)', secret: 'not a url at all' },
];

/** A referrer from the site itself (`www.` and case aside): `(internal)`, not a source. */
export function internalReferrer(site: string, path: string): ReferrerCase {
  return { url: `https://WWW.${site.toUpperCase()}${path}`, source: '(internal)', secret: path };
}

export interface UtmCase {
  /** The query the page URL carries (with its `?`), or the empty string. */
  readonly query: string;
  readonly utmSource: string;
  readonly utmMedium: string;
  readonly utmCampaign: string;
}

/** UTM parameters as a page URL carries them: source and medium lower-cased, campaign as sent, `(none)` if absent. */
export const UTM_QUERIES: readonly UtmCase[] = [
  { query: '', utmSource: '(none)', utmMedium: '(none)', utmCampaign: '(none)' },
  {
    query: '?utm_source=Newsletter&utm_medium=Email&utm_campaign=Autumn+Sale',
    utmSource: 'newsletter',
    utmMedium: 'email',
    utmCampaign: 'Autumn Sale',
  },
  {
    query: '?utm_source=mastodon&utm_campaign=Launch',
    utmSource: 'mastodon',
    utmMedium: '(none)',
    utmCampaign: 'Launch',
  },
  { query: '?ref=x&utm_medium=CPC', utmSource: '(none)', utmMedium: 'cpc', utmCampaign: '(none)' },
];

/**
 * Every raw input of these tables, and distinctive pieces of them, as they must never be stored: the addresses,
 * the User-Agents, the referrers' URLs and the parts of them that are not their source.
 */
export function rawInputs(): string[] {
  return [
    ...CLIENT_IPS.map((known) => known.ip),
    ...Object.values(USER_AGENTS).map((known) => known.userAgent),
    ...BOT_USER_AGENTS,
    UNPARSEABLE_USER_AGENT.userAgent,
    'Win64; x64',
    'Gecko/20100101',
    'iPhone OS 17_5',
    'SM-X710',
    ...EXTERNAL_REFERRERS.flatMap((referrer) => [referrer.url ?? [], referrer.secret ?? []].flat()),
  ];
}
