/**
 * The soak's traffic, reproducible from a seed: hits on Zipf-popular pages of one site, mostly now (no `at`, as a
 * beacon or a live pipeline sends them) and a fifth with an `at` spread over the last hour (a pipeline catching
 * up); a share with an idempotency key; optionally a `visitor` (issue 19) and the dimension inputs `referrer`,
 * `userAgent`, `clientIp` (issue 20), so the same generator runs before and after those land. Dashboards read the
 * ten most popular pages by minute over the last hour, alternately with the range inlined (a new document each
 * time, as many clients write them) and as variables.
 */
import type { Random } from '../shared/random';
import { seededRandom, zipfSampler } from '../shared/random';

export const SOAK_SITE = 'soak.example';
/** A fifth of the hits carry an `at` within the last hour. */
const LATE_SHARE = 0.2;
const LATE_SPAN_MS = 3_600_000;

export interface TrafficSettings {
  readonly pages: number;
  readonly keyedPercent: number;
  /** Distinct visitors; 0: no `visitor` field. */
  readonly visitors: number;
  readonly dimensions: boolean;
  readonly seed: number;
}

export interface HitRequest {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

const REFERRERS = [
  'https://www.google.com/',
  'https://news.ycombinator.com/',
  'https://t.co/abc',
  '',
  'https://duckduckgo.com/',
];
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
];

export function soakPage(rank: number): string {
  return `/articles/${String(rank).padStart(4, '0')}.html`;
}

export class SoakTraffic {
  private readonly random: Random;
  private readonly rank: () => number;
  private readonly query: string;

  constructor(private readonly settings: TrafficSettings) {
    this.random = seededRandom(settings.seed);
    this.rank = zipfSampler(settings.pages, 1, this.random);
    const fields = ['$site: String!', '$page: String!', '$at: DateTime', '$key: String'];
    const args = ['site: $site', 'page: $page', 'at: $at', 'idempotencyKey: $key'];
    if (settings.visitors > 0) {
      fields.push('$visitor: String');
      args.push('visitor: $visitor');
    }
    if (settings.dimensions) {
      fields.push('$referrer: String', '$userAgent: String', '$clientIp: String');
      args.push('referrer: $referrer', 'userAgent: $userAgent', 'clientIp: $clientIp');
    }
    this.query = `mutation Hit(${fields.join(', ')}) { recordHit(${args.join(', ')}) { count } }`;
  }

  /** The `index`-th hit at `now`, as one recordHit request. */
  hit(index: number, now: number): HitRequest {
    const { random, settings } = this;
    const variables: Record<string, unknown> = { site: SOAK_SITE, page: soakPage(this.rank()) };
    if (random() < LATE_SHARE) variables.at = new Date(now - Math.floor(random() * LATE_SPAN_MS)).toISOString();
    if (random() * 100 < settings.keyedPercent) variables.key = `soak-${settings.seed}-${index}`;
    if (settings.visitors > 0) variables.visitor = `v${Math.floor(random() * settings.visitors)}`;
    if (settings.dimensions) {
      variables.referrer = REFERRERS[Math.floor(random() * REFERRERS.length)];
      variables.userAgent = USER_AGENTS[Math.floor(random() * USER_AGENTS.length)];
      variables.clientIp = `203.0.113.${1 + Math.floor(random() * 250)}`;
    }
    return { query: this.query, variables };
  }

  /** The `index`-th dashboard read at `now`: even ones inline the range, odd ones pass it as variables. */
  dashboard(index: number, now: number): HitRequest {
    const from = new Date(now - LATE_SPAN_MS).toISOString().replace(/\.\d+Z$/, 'Z');
    const to = new Date(now + 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const inline = index % 2 === 0;
    const range = inline ? `{ from: "${from}", to: "${to}" }` : '{ from: $from, to: $to }';
    const series = Array.from(
      { length: 10 },
      (_, i) =>
        `s${i}: pageStats(site: "${SOAK_SITE}", page: "${soakPage(i)}", range: ${range}, granularity: MINUTE) { total points { t hits } }`,
    ).join(' ');
    return inline
      ? { query: `query Dashboard { ${series} }`, variables: {} }
      : { query: `query Dashboard($from: DateTime!, $to: DateTime!) { ${series} }`, variables: { from, to } };
  }

  /** The live subscription: the most popular page by second over the last five minutes. */
  static liveQuery(): string {
    return `subscription Live { pageStatsLive(site: "${SOAK_SITE}", page: "${soakPage(0)}", granularity: SECOND, window: 300) { snapshot total points { t hits } } }`;
  }
}
