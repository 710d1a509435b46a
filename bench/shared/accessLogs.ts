/**
 * Seeded synthetic access logs whose truth is known: every entry says what it is (a page view, an error, a
 * POST, an asset, a bot) and which page it must count for, so tests can compare tally's series with a naive
 * recount and the import benchmark has a realistic 1,000,000-line file to read.
 */
import { seededRandom, zipfSampler } from './random';

export type LogStyle = 'combined' | 'common' | 'vhost' | 'iso';

/** nginx log_format strings for the styles that are not built in. */
export const STYLE_FORMATS: Readonly<Record<LogStyle, string>> = {
  combined: 'combined',
  common: 'common',
  vhost:
    '$host $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" $request_time',
  iso: '$time_iso8601|$host|$request_method|$request_uri|$status|$http_user_agent',
};

export interface LogEntry {
  readonly site: string;
  /** The request target as the client sent it (percent-encoded, maybe with a query). */
  readonly target: string;
  /** The page tally must count (decoded, query dropped), when the entry is a page view. */
  readonly page: string;
  readonly at: number;
  /** Minutes east of UTC the server wrote the time in. */
  readonly offsetMinutes: number;
  readonly method: string;
  readonly status: number;
  readonly userAgent: string;
  /** What the default filters must do with it. */
  readonly kind: 'view' | 'status' | 'method' | 'asset' | 'bot';
}

const PAGES = [
  '/',
  '/pricing',
  '/docs/intro',
  '/docs/install',
  '/blog/2026/01/hello-world',
  '/caf%C3%A9',
  '/a%20b',
  '/%E6%97%A5%E6%9C%AC',
  '/search',
  '/about',
  '/contact',
  '/docs/api/graphql',
];
const ASSETS = ['/static/app.js', '/static/site.css', '/favicon.ico', '/img/logo.png', '/fonts/inter.woff2'];
const BROWSERS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
];
const BOTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'curl/8.5.0',
  'python-requests/2.31.0',
];
const OFFSETS = [0, 120, -420, 330, -180];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export interface GenerateOptions {
  readonly count: number;
  readonly seed: number;
  readonly sites: readonly string[];
  /** Entries fall in [start, start + spanMs), in order. */
  readonly start: number;
  readonly spanMs: number;
}

export function* generateLogEntries(options: GenerateOptions): Generator<LogEntry> {
  const random = seededRandom(options.seed);
  const pick = zipfSampler(PAGES.length, 1, random);
  const step = options.spanMs / options.count;
  for (let i = 0; i < options.count; i += 1) {
    const at = Math.floor(options.start + i * step + random() * step);
    const site = options.sites[Math.floor(random() * options.sites.length)] as string;
    const offsetMinutes = OFFSETS[Math.floor(random() * OFFSETS.length)] as number;
    const roll = random();
    const path = PAGES[pick()] as string;
    const query = random() < 0.2 ? `?ref=${Math.floor(random() * 5)}` : '';
    const browser = BROWSERS[Math.floor(random() * BROWSERS.length)] as string;
    const page = decodeURIComponent(path);
    const base = {
      site,
      page,
      at,
      offsetMinutes,
      userAgent: browser,
      method: 'GET',
      status: 200,
      target: path + query,
    };
    if (roll < 0.55) yield { ...base, status: random() < 0.9 ? 200 : 304, kind: 'view' };
    else if (roll < 0.65) yield { ...base, status: random() < 0.7 ? 404 : 500, kind: 'status' };
    else if (roll < 0.7) yield { ...base, method: random() < 0.5 ? 'POST' : 'HEAD', kind: 'method' };
    else if (roll < 0.9) {
      const asset = ASSETS[Math.floor(random() * ASSETS.length)] as string;
      yield { ...base, target: asset, page: asset, kind: 'asset' };
    } else yield { ...base, userAgent: BOTS[Math.floor(random() * BOTS.length)] as string, kind: 'bot' };
  }
}

export function formatLogEntry(entry: LogEntry, style: LogStyle): string {
  const request = `${entry.method} ${entry.target} HTTP/1.1`;
  const ip = '203.0.113.7';
  const ua = entry.userAgent;
  switch (style) {
    case 'common':
      return `${ip} - - [${timeLocal(entry.at, entry.offsetMinutes)}] "${request}" ${entry.status} 5120`;
    case 'combined':
      return `${ip} - - [${timeLocal(entry.at, entry.offsetMinutes)}] "${request}" ${entry.status} 5120 "https://ref.example/" "${ua}"`;
    case 'vhost':
      return `${entry.site} ${ip} - - [${timeLocal(entry.at, entry.offsetMinutes)}] "${request}" ${entry.status} 5120 "-" "${ua}" 0.004`;
    case 'iso':
      return `${timeIso(entry.at, entry.offsetMinutes)}|${entry.site}|${entry.method}|${entry.target}|${entry.status}|${ua}`;
  }
}

/** `10/Oct/2000:13:55:36 -0700`, the wall clock at that offset. */
export function timeLocal(at: number, offsetMinutes: number): string {
  const d = new Date(Math.floor(at / 1000) * 1000 + offsetMinutes * 60_000);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return (
    `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${offset(offsetMinutes, '')}`
  );
}

/** `2000-10-10T13:55:36-07:00`. */
export function timeIso(at: number, offsetMinutes: number): string {
  const local = new Date(Math.floor(at / 1000) * 1000 + offsetMinutes * 60_000).toISOString().slice(0, 19);
  return `${local}${offset(offsetMinutes, ':')}`;
}

function offset(minutes: number, separator: string): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${separator}${String(abs % 60).padStart(2, '0')}`;
}
