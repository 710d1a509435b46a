/**
 * Who sends a hit and from where (issues 19, 20), a pure function of the hit's index, so every variant of a run
 * replays the same traffic: a visitor from a pool with repeat visits (the k-th most active visits with weight
 * 1/k^s), their own User-Agent (a dozen real ones, by share) and client address (one per visitor, a seventh IPv6),
 * and per hit a referrer from a realistic mix (REFERRER_MIX: a third direct, internal links, a few search engines,
 * some social sites, a long tail of other hosts) and, on some hits, UTM campaign values.
 */
import { REAL_USER_AGENTS } from './userAgents';
import { unitAt, zipfCdf, zipfPick } from './random';

export interface AudienceShape {
  readonly seed: number;
  /** Distinct visitors in the pool. */
  readonly visitors: number;
  /** Zipf exponent of visits per visitor (0: every visitor alike). */
  readonly visitorZipfS: number;
  /** The site's own host: a referrer from it is internal. */
  readonly siteHost: string;
  /** Distinct hosts of the long tail of referrers. */
  readonly longTailHosts: number;
  /** Zipf exponent over the long-tail hosts (0: uniform, so a run meets as many of them as it can). */
  readonly longTailZipfS: number;
}

/** UTM values a client sends as explicit dimensions (the page path stays the same with or without them). */
export interface UtmValues {
  readonly utmSource: string;
  readonly utmMedium: string;
  readonly utmCampaign: string;
}

export interface AudienceHit {
  /** 0 is the most active visitor. */
  readonly visitorRank: number;
  readonly visitor: string;
  readonly referrer: string | undefined;
  readonly userAgent: string;
  readonly clientIp: string;
  readonly utm: UtmValues | undefined;
}

/** Shares of hits by kind of referrer, in this order over [0, 1). */
export const REFERRER_MIX = { direct: 0.35, internal: 0.15, search: 0.25, social: 0.05, longTail: 0.2 } as const;
const SEARCH: ReadonlyArray<[string, number]> = [
  ['https://www.google.com/', 0.6],
  ['https://www.google.de/', 0.1],
  ['https://www.google.co.uk/', 0.07],
  ['https://www.bing.com/search?q=tally+analytics', 0.13],
  ['https://duckduckgo.com/', 0.07],
  ['https://search.yahoo.com/', 0.03],
];
const SOCIAL = [
  'https://t.co/x2Lk9',
  'https://l.facebook.com/l.php',
  'https://www.reddit.com/r/webdev/',
  'https://news.ycombinator.com/item?id=1',
  'https://www.linkedin.com/',
];
/** Share of hits carrying UTM values, and the campaigns they name. */
export const UTM_SHARE = 0.08;
const CAMPAIGNS: readonly UtmValues[] = [
  ...Array.from({ length: 12 }, (_, i) => ({
    utmSource: 'newsletter',
    utmMedium: 'email',
    utmCampaign: `issue-${i + 1}`,
  })),
  { utmSource: 'twitter', utmMedium: 'social', utmCampaign: 'launch' },
  { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'brand' },
  { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'competitors' },
];
/** One in this many visitors has an IPv6 address. */
const IPV6_EVERY = 7;

/** Salts of the independent streams drawn per hit or per visitor. */
const VISITOR = 1;
const REFERRER = 2;
const REFERRER_PICK = 3;
const UTM = 4;
const AGENT = 5;
const ADDRESS = 6;

export class AudienceTraffic {
  private readonly visitorCdf: number[];
  private readonly longTailCdf: number[];
  private readonly agentCdf: number[];
  private readonly searchCdf: number[];

  constructor(readonly shape: AudienceShape) {
    this.visitorCdf = zipfCdf(shape.visitors, shape.visitorZipfS);
    this.longTailCdf = zipfCdf(shape.longTailHosts, shape.longTailZipfS);
    this.agentCdf = cumulative(REAL_USER_AGENTS.map(({ share }) => share));
    this.searchCdf = cumulative(SEARCH.map(([, share]) => share));
  }

  hit(index: number): AudienceHit {
    const { seed } = this.shape;
    const rank = zipfPick(this.visitorCdf, unitAt(seed + VISITOR, index));
    const utm =
      unitAt(seed + UTM, index) < UTM_SHARE
        ? CAMPAIGNS[Math.floor(unitAt(seed + UTM, index + 0x4000_0000) * CAMPAIGNS.length)]
        : undefined;
    return {
      visitorRank: rank,
      visitor: `visitor-${rank}`,
      referrer: this.referrer(index),
      userAgent: REAL_USER_AGENTS[zipfPick(this.agentCdf, unitAt(seed + AGENT, rank))]?.userAgent as string,
      clientIp: clientIp(unitAt(seed + ADDRESS, rank), rank),
      utm,
    };
  }

  /** The long-tail host of rank k (0 the most frequent when longTailZipfS > 0). */
  longTailHost(k: number): string {
    return `longtail-${k}.example.org`;
  }

  private referrer(index: number): string | undefined {
    const { seed, siteHost } = this.shape;
    let unit = unitAt(seed + REFERRER, index);
    const pick = unitAt(seed + REFERRER_PICK, index);
    if ((unit -= REFERRER_MIX.direct) < 0) return undefined;
    if ((unit -= REFERRER_MIX.internal) < 0)
      return `https://${siteHost}/articles/${String(Math.floor(pick * 50)).padStart(4, '0')}.html`;
    if ((unit -= REFERRER_MIX.search) < 0) return SEARCH[zipfPick(this.searchCdf, pick)]?.[0];
    if ((unit -= REFERRER_MIX.social) < 0) return SOCIAL[Math.floor(pick * SOCIAL.length)];
    const k = zipfPick(this.longTailCdf, pick);
    return `https://${this.longTailHost(k)}/posts/${k % 97}`;
  }
}

/** Cumulative sums of `weights`: the CDF zipfPick reads. */
function cumulative(weights: readonly number[]): number[] {
  let sum = 0;
  return weights.map((weight) => (sum += weight));
}

/** A public address (11.0.0.0–99.255.255.255 holds no special-purpose range), or a global IPv6 one. */
function clientIp(unit: number, rank: number): string {
  const bits = Math.floor(unit * 0x1_0000_0000);
  if (rank % IPV6_EVERY === IPV6_EVERY - 1) {
    const group = (shift: number): string => ((bits >>> shift) & 0xffff).toString(16);
    return `2a0${rank % 10}:${group(0)}:${group(16)}:${(rank & 0xffff).toString(16)}::${group(8)}`;
  }
  return `${11 + (bits % 89)}.${(bits >>> 8) & 255}.${(bits >>> 16) & 255}.${1 + ((bits >>> 24) % 254)}`;
}
