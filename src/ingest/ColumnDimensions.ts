/**
 * The dimensions of a columnar batch's hits (HitColumnsRequest): each dictionary entry (referrer, User-Agent,
 * client IP, explicit values) is validated up front and derived on first use, once per batch, so a batch of
 * 1,000 hits on 20 User-Agents parses 20. Row for row the values are deriveDimensions' for the same inputs.
 */
import type { ClientIp } from '../domain/dimensions/ClientIp';
import type { Dimension, DimensionValues } from '../domain/dimensions/Dimension';
import { MAX_REFERRER_LENGTH, MAX_USER_AGENT_LENGTH } from '../domain/dimensions/dimensionInputLimits';
import { DIRECT, UNKNOWN } from '../domain/dimensions/dimensionMarkers';
import { parseClientIp } from '../domain/dimensions/parseClientIp';
import type { UserAgentDimensions } from '../domain/dimensions/parseUserAgent';
import { referrerHost, referrerSource } from '../domain/dimensions/referrerSource';
import { utmFrom } from '../domain/dimensions/utmFrom';
import type { UtmDimensions } from '../domain/dimensions/utmFrom';
import { rejection } from '../domain/InputRejectedError';
import { RejectReason } from '../domain/RejectReason';
import { checkIndexColumn } from './checkIndexColumn';
import type { HitColumnsRequest } from './HitColumnsRequest';
import type { DimensionSources } from './loadDimensionSources';
import { parseExplicitDimensions } from './parseExplicitDimensions';

const UNKNOWN_USER_AGENT: UserAgentDimensions = { browser: UNKNOWN, os: UNKNOWN, device: UNKNOWN };
const NOTHING_SET: Partial<Record<Dimension, string>> = {};

/** A batch's dimension inputs, each dictionary entry validated up front and derived on first use. */
export class ColumnDimensions {
  private readonly sites: readonly string[];
  private readonly siteIndex: readonly number[] | null | undefined;
  private readonly pages: readonly string[];
  private readonly pageIndex: readonly number[];
  private readonly referrers: readonly string[];
  private readonly referrerIndex: readonly number[] | undefined;
  private readonly userAgents: readonly string[];
  private readonly userAgentIndex: readonly number[] | undefined;
  private readonly clientIps: readonly ClientIp[];
  private readonly clientIpIndex: readonly number[] | undefined;
  private readonly explicit: ReadonlyArray<Partial<Record<Dimension, string>>>;
  private readonly explicitIndex: readonly number[] | undefined;
  private readonly agents: Array<UserAgentDimensions | undefined> = [];
  private readonly countries: Array<string | undefined> = [];
  private readonly utm: Array<UtmDimensions | undefined> = [];
  private readonly pageHosts: Array<string | null | undefined> = [];
  /** Source per (referrer, site): `referrer * sites + site`. */
  private readonly sourceCache = new Map<number, string>();

  constructor(
    columns: HitColumnsRequest,
    rows: number,
    prefix: string,
    private readonly sources: DimensionSources,
  ) {
    this.sites = columns.sites;
    this.siteIndex = columns.siteIndex;
    this.pages = columns.pages;
    this.pageIndex = columns.pageIndex;
    this.referrerIndex = checkIndexColumn(
      columns.referrers,
      columns.referrerIndex,
      'referrers',
      'referrerIndex',
      rows,
      prefix,
    );
    this.referrers = checkLengths(
      columns.referrers,
      MAX_REFERRER_LENGTH,
      RejectReason.REFERRER_TOO_LONG,
      'referrers',
      prefix,
    );
    this.userAgentIndex = checkIndexColumn(
      columns.userAgents,
      columns.userAgentIndex,
      'userAgents',
      'userAgentIndex',
      rows,
      prefix,
    );
    this.userAgents = checkLengths(
      columns.userAgents,
      MAX_USER_AGENT_LENGTH,
      RejectReason.USER_AGENT_TOO_LONG,
      'userAgents',
      prefix,
    );
    this.clientIpIndex = checkIndexColumn(
      columns.clientIps,
      columns.clientIpIndex,
      'clientIps',
      'clientIpIndex',
      rows,
      prefix,
    );
    this.clientIps = (columns.clientIps ?? []).map((ip, i) => parseClientIp(ip, () => `${prefix}clientIps[${i}]`));
    this.explicitIndex = checkIndexColumn(
      columns.dimensions,
      columns.dimensionIndex,
      'dimensions',
      'dimensionIndex',
      rows,
      prefix,
    );
    this.explicit = (columns.dimensions ?? []).map((values, i) =>
      parseExplicitDimensions(values, (name) => `${prefix}dimensions[${i}].${name}`),
    );
  }

  /** The same values deriveDimensions gives the row's inputs (test/unit/ingest/HitEnricher.test.ts compares them). */
  row(row: number): DimensionValues {
    const s = this.siteIndex == null ? 0 : (this.siteIndex[row] as number);
    const p = this.pageIndex[row] as number;
    const r = this.referrerIndex === undefined ? -1 : (this.referrerIndex[row] as number);
    const u = this.userAgentIndex === undefined ? -1 : (this.userAgentIndex[row] as number);
    const c = this.clientIpIndex === undefined ? -1 : (this.clientIpIndex[row] as number);
    const e = this.explicitIndex === undefined ? -1 : (this.explicitIndex[row] as number);
    const set = e < 0 ? NOTHING_SET : (this.explicit[e] as Partial<Record<Dimension, string>>);
    const utm =
      set.utmSource !== undefined && set.utmMedium !== undefined && set.utmCampaign !== undefined
        ? undefined
        : this.utmOf(p);
    const agent =
      (set.browser !== undefined && set.os !== undefined && set.device !== undefined) || u < 0
        ? UNKNOWN_USER_AGENT
        : this.agentOf(u);
    return {
      source: set.source ?? this.sourceOf(r, s, p),
      utmSource: set.utmSource ?? utm?.utmSource ?? UNKNOWN,
      utmMedium: set.utmMedium ?? utm?.utmMedium ?? UNKNOWN,
      utmCampaign: set.utmCampaign ?? utm?.utmCampaign ?? UNKNOWN,
      browser: set.browser ?? agent.browser,
      os: set.os ?? agent.os,
      device: set.device ?? agent.device,
      country: set.country ?? (c < 0 ? UNKNOWN : this.countryOf(c)),
    };
  }

  private sourceOf(r: number, s: number, p: number): string {
    if (r < 0) return DIRECT;
    const site = this.sites[s] as string;
    const pageHost = this.pageHostOf(p);
    // A page naming its own host (an absolute URL) makes its own referrers internal: not shared between pages.
    if (pageHost !== undefined) return referrerSource(this.referrers[r], site, pageHost);
    const key = r * this.sites.length + s;
    let source = this.sourceCache.get(key);
    if (source === undefined) {
      source = referrerSource(this.referrers[r], site);
      this.sourceCache.set(key, source);
    }
    return source;
  }

  private pageHostOf(p: number): string | undefined {
    let host = this.pageHosts[p];
    if (host === undefined) {
      const page = this.pages[p] as string;
      host = (page.includes('://') ? referrerHost(page) : undefined) ?? null;
      this.pageHosts[p] = host;
    }
    return host ?? undefined;
  }

  private utmOf(p: number): UtmDimensions {
    let utm = this.utm[p];
    if (utm === undefined) this.utm[p] = utm = utmFrom(this.pages[p]);
    return utm;
  }

  private agentOf(u: number): UserAgentDimensions {
    let agent = this.agents[u];
    if (agent === undefined) {
      const userAgent = this.userAgents[u] as string;
      agent = userAgent.trim() === '' ? UNKNOWN_USER_AGENT : this.sources.userAgents.parse(userAgent);
      this.agents[u] = agent;
    }
    return agent;
  }

  private countryOf(c: number): string {
    let country = this.countries[c];
    if (country === undefined) {
      const countries = this.sources.countries;
      country = countries === undefined ? UNKNOWN : countries.lookup(this.clientIps[c] as ClientIp);
      this.countries[c] = country;
    }
    return country;
  }
}

function checkLengths(
  dictionary: readonly string[] | null | undefined,
  maxLength: number,
  reason: RejectReason,
  name: string,
  prefix: string,
): readonly string[] {
  const values = dictionary ?? [];
  values.forEach((value, i) => {
    if (value.length > maxLength) {
      throw rejection(reason, `${prefix}${name}[${i}]`, `must be at most ${maxLength} characters, got ${value.length}`);
    }
  });
  return values;
}
