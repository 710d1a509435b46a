/**
 * All dimensions of one hit, from what its source saw (referrer, User-Agent, client IP, page URL) and what the
 * client set explicitly: an explicit value wins over the derived one. What every source calls, mutations, beacon
 * and importer alike, so one hit gets the same values whichever way it came. Raw inputs are validated even when
 * an explicit value makes them unused; they are used here and then dropped: no raw IP or User-Agent is kept.
 */
import { rejection } from '../InputRejectedError';
import { RejectReason } from '../RejectReason';
import type { CountryLookup } from './CountryLookup';
import type { Dimension, DimensionValues } from './Dimension';
import { DIMENSIONS } from './Dimension';
import { MAX_PAGE_URL_LENGTH, MAX_REFERRER_LENGTH, MAX_USER_AGENT_LENGTH } from './dimensionInputLimits';
import { UNKNOWN } from './dimensionMarkers';
import { parseClientIp } from './parseClientIp';
import { parseExplicitDimension } from './parseExplicitDimension';
import type { UserAgentDimensions } from './parseUserAgent';
import { referrerHost, referrerSource } from './referrerSource';
import type { UserAgentParser } from './UserAgentParser';
import { utmFrom } from './utmFrom';

/** What a hit's source saw; each is optional (the importer's log format may lack some). */
export interface RawDimensionInputs {
  readonly referrer?: string | null | undefined;
  readonly userAgent?: string | null | undefined;
  readonly clientIp?: string | null | undefined;
  /** The page as requested, with its query (a full URL, or a path): where the UTM parameters are. */
  readonly pageUrl?: string | null | undefined;
}

/** Values a client sets itself, per dimension. */
export type ExplicitDimensions = Readonly<Partial<Record<Dimension, string | null | undefined>>>;

export interface DimensionContext {
  /** The hit's site: a referrer from it is internal. */
  readonly siteHost: string;
  readonly userAgents: UserAgentParser;
  /** Absent: no country database is loaded, and country is `(unknown)` unless set explicitly. */
  readonly countries?: CountryLookup | undefined;
}

const UNKNOWN_USER_AGENT: UserAgentDimensions = { browser: UNKNOWN, os: UNKNOWN, device: UNKNOWN };

export function deriveDimensions(
  raw: RawDimensionInputs,
  explicit: ExplicitDimensions | null | undefined,
  context: DimensionContext,
  options: { readonly path?: string } = {},
): DimensionValues {
  const path = options.path;
  const field = path === undefined ? (name: string) => name : (name: string) => `${path}.${name}`;
  const referrer = checkLength(raw.referrer, MAX_REFERRER_LENGTH, RejectReason.REFERRER_TOO_LONG, field, 'referrer');
  const pageUrl = checkLength(raw.pageUrl, MAX_PAGE_URL_LENGTH, RejectReason.PAGE_URL_TOO_LONG, field, 'pageUrl');
  const userAgent = checkLength(
    raw.userAgent,
    MAX_USER_AGENT_LENGTH,
    RejectReason.USER_AGENT_TOO_LONG,
    field,
    'userAgent',
  );
  const clientIp = raw.clientIp == null ? undefined : parseClientIp(raw.clientIp, () => field('clientIp'));

  const set: Partial<Record<Dimension, string>> = {};
  if (explicit != null) {
    for (const dimension of DIMENSIONS) {
      const value = explicit[dimension];
      if (value != null) set[dimension] = parseExplicitDimension(dimension, value, () => field(dimension));
    }
  }

  const source =
    set.source ?? referrerSource(referrer, context.siteHost, pageUrl === undefined ? undefined : pageHost(pageUrl));
  const utm =
    set.utmSource !== undefined && set.utmMedium !== undefined && set.utmCampaign !== undefined
      ? undefined
      : utmFrom(pageUrl);
  const agent =
    (set.browser !== undefined && set.os !== undefined && set.device !== undefined) ||
    userAgent === undefined ||
    userAgent.trim() === ''
      ? UNKNOWN_USER_AGENT
      : context.userAgents.parse(userAgent);
  const country =
    set.country ??
    (clientIp === undefined || context.countries === undefined ? UNKNOWN : context.countries.lookup(clientIp));
  return {
    source,
    utmSource: set.utmSource ?? utm?.utmSource ?? UNKNOWN,
    utmMedium: set.utmMedium ?? utm?.utmMedium ?? UNKNOWN,
    utmCampaign: set.utmCampaign ?? utm?.utmCampaign ?? UNKNOWN,
    browser: set.browser ?? agent.browser,
    os: set.os ?? agent.os,
    device: set.device ?? agent.device,
    country,
  };
}

function checkLength(
  value: string | null | undefined,
  maxLength: number,
  reason: RejectReason,
  field: (name: string) => string,
  name: string,
): string | undefined {
  if (value == null) return undefined;
  if (value.length > maxLength) {
    throw rejection(reason, () => field(name), `must be at most ${maxLength} characters, got ${value.length}`);
  }
  return value;
}

/** The host of an absolute page URL, so a referrer from the page's own host is internal too. */
function pageHost(pageUrl: string): string | undefined {
  return pageUrl.includes('://') ? referrerHost(pageUrl) : undefined;
}
