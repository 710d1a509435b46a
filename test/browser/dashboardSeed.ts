/**
 * The hits the dashboard test records through `recordHits` — visitor ids, referrers, User-Agents, client IPs and
 * UTM parameters in the page, as a site would send them — and what a person should then see, recounted here from
 * the same rows without tally's code: each raw input's expected dimension value is written out by hand.
 */

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

export const DASHBOARD_SITE = 'panels.test';

export type PanelDimension = 'SOURCE' | 'UTM_CAMPAIGN' | 'COUNTRY' | 'BROWSER' | 'OS' | 'DEVICE';

/** What a browser sends, and the values the rules give it (docs: dimensions). */
interface Profile {
  readonly referrer?: string;
  readonly userAgent: string;
  readonly clientIp?: string;
  readonly expect: Readonly<Record<Exclude<PanelDimension, 'UTM_CAMPAIGN'>, string>>;
}

const PROFILES = {
  googleFirefox: {
    referrer: 'https://www.google.com/search?q=tally',
    userAgent: FIREFOX_LINUX,
    clientIp: '193.0.6.139', // RIPE NCC, Amsterdam
    expect: { SOURCE: 'Google', COUNTRY: 'NL', BROWSER: 'Firefox', OS: 'Linux', DEVICE: 'desktop' },
  },
  hackerNewsIphone: {
    referrer: 'https://news.ycombinator.com/item?id=1',
    userAgent: IPHONE,
    clientIp: '217.5.100.1', // Deutsche Telekom
    expect: { SOURCE: 'Hacker News', COUNTRY: 'DE', BROWSER: 'Safari', OS: 'iOS', DEVICE: 'mobile' },
  },
  directWindows: {
    userAgent: CHROME_WINDOWS,
    clientIp: '8.8.8.8',
    expect: { SOURCE: '(direct)', COUNTRY: 'US', BROWSER: 'Chrome', OS: 'Windows', DEVICE: 'desktop' },
  },
  internalIpad: {
    referrer: `https://${DASHBOARD_SITE}/blog`,
    userAgent: IPAD,
    expect: { SOURCE: '(internal)', COUNTRY: '(unknown)', BROWSER: 'Safari', OS: 'iPadOS', DEVICE: 'tablet' },
  },
  duckDuckGoAndroid: {
    referrer: 'https://duckduckgo.com/',
    userAgent: CHROME_ANDROID,
    clientIp: '133.1.1.1', // a Japanese university
    expect: { SOURCE: 'DuckDuckGo', COUNTRY: 'JP', BROWSER: 'Chrome', OS: 'Android', DEVICE: 'mobile' },
  },
} satisfies Record<string, Profile>;

const LANDING = '/landing?utm_source=newsletter&utm_medium=email&utm_campaign=Spring';
const campaignOf = (page: string): string => (page === LANDING ? 'Spring' : '(none)');

export interface SeedRow {
  readonly visitor: string;
  readonly profile: keyof typeof PROFILES;
  readonly page: string;
  /** Whole days before now: 0–6 are in the last 7 days, 9–12 in the period before. */
  readonly daysAgo: number;
  readonly count: number;
}

export const SEED: readonly SeedRow[] = [
  { visitor: 'alice', profile: 'googleFirefox', page: LANDING, daysAgo: 0, count: 2 },
  { visitor: 'alice', profile: 'googleFirefox', page: '/pricing', daysAgo: 0, count: 1 },
  { visitor: 'bob', profile: 'hackerNewsIphone', page: '/', daysAgo: 1, count: 1 },
  { visitor: 'bob', profile: 'hackerNewsIphone', page: '/pricing', daysAgo: 3, count: 2 },
  { visitor: 'carol', profile: 'directWindows', page: '/', daysAgo: 2, count: 4 },
  { visitor: 'dave', profile: 'internalIpad', page: '/docs', daysAgo: 0, count: 1 },
  { visitor: 'erin', profile: 'duckDuckGoAndroid', page: '/', daysAgo: 5, count: 3 },
  { visitor: 'frank', profile: 'googleFirefox', page: '/', daysAgo: 6, count: 1 },
  { visitor: 'gina', profile: 'directWindows', page: '/pricing', daysAgo: 4, count: 2 },
  // The previous period.
  { visitor: 'alice', profile: 'googleFirefox', page: '/', daysAgo: 9, count: 3 },
  { visitor: 'hank', profile: 'directWindows', page: '/', daysAgo: 10, count: 2 },
  { visitor: 'ivan', profile: 'hackerNewsIphone', page: '/pricing', daysAgo: 12, count: 1 },
  { visitor: 'judy', profile: 'directWindows', page: '/', daysAgo: 11, count: 4 },
];

const DAY = 86_400_000;

/** The HitInputs of the seed, `now` being the test's clock (a minute back, so "today" is never in the future). */
export function seedHits(now: number): Array<Record<string, unknown>> {
  return SEED.map((row) => {
    const profile: Profile = PROFILES[row.profile];
    return {
      site: DASHBOARD_SITE,
      page: row.page,
      count: row.count,
      at: new Date(now - row.daysAgo * DAY - 60_000).toISOString(),
      visitor: row.visitor,
      userAgent: profile.userAgent,
      ...(profile.referrer ? { referrer: profile.referrer } : {}),
      ...(profile.clientIp ? { clientIp: profile.clientIp } : {}),
    };
  });
}

export const current = (row: SeedRow): boolean => row.daysAgo <= 6;
export const previous = (row: SeedRow): boolean => row.daysAgo >= 9;

export function valueOf(row: SeedRow, dimension: PanelDimension): string {
  return dimension === 'UTM_CAMPAIGN' ? campaignOf(row.page) : PROFILES[row.profile].expect[dimension];
}

export interface Recount {
  readonly hits: number;
  readonly visitors: number;
}

/** Hits and distinct visitors of the rows, grouped by `key` (sorted by hits, then key, as tally ranks them). */
export function recount(rows: readonly SeedRow[], key: (row: SeedRow) => string): Array<[string, Recount]> {
  const groups = new Map<string, { hits: number; visitors: Set<string> }>();
  for (const row of rows) {
    const group = groups.get(key(row)) ?? { hits: 0, visitors: new Set<string>() };
    group.hits += row.count;
    group.visitors.add(row.visitor);
    groups.set(key(row), group);
  }
  return [...groups]
    .map(([value, g]): [string, Recount] => [value, { hits: g.hits, visitors: g.visitors.size }])
    .sort(([a, x], [b, y]) => y.hits - x.hits || (a < b ? -1 : a > b ? 1 : 0));
}

export function total(rows: readonly SeedRow[]): Recount {
  return recount(rows, () => '')[0]?.[1] ?? { hits: 0, visitors: 0 };
}
