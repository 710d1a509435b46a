/**
 * What each root field needs, read before execution: its scope, the sites it touches (from its coerced
 * arguments, or from them as sent where rawArgsSuffice says that decides alike), and what it costs against the
 * per-request limits. A root field missing here needs `admin` and a key valid for all sites: new operations are
 * closed until someone decides who may call them.
 */
import { ALL_SITES } from '../../auth/authorize';
import type { Scope } from '../../auth/Scope';
import { bucketCount } from '../../time/buckets';
import type { Granularity } from '../../time/Granularity';

export interface FieldCost {
  /** Buckets the field returns (pageStats). */
  readonly buckets?: number;
  /** Hits it records. */
  readonly hits?: number;
  /** Impressions it records. */
  readonly impressions?: number;
}

export interface RootFieldPolicy {
  readonly scope: Scope;
  /** The sites named by the arguments, or ALL_SITES when the field is not about one site. */
  sites(args: Args): readonly string[] | typeof ALL_SITES;
  cost?(args: Args): FieldCost;
  /**
   * Whether sites() and cost() give the same answer on these arguments as sent (variables not coerced) as on the
   * coerced ones: then the guard skips coercing the request's variables, which execution does again (for a batch of
   * hits, coercion is the guard's whole cost). Only where every value they read is already of its coerced type.
   */
  readonly rawArgsSuffice?: (args: Args) => boolean;
}

type Args = Readonly<Record<string, unknown>>;

const oneSite = (args: Args): string[] => (typeof args.site === 'string' ? [args.site] : []);
const allSites = (): typeof ALL_SITES => ALL_SITES;
const length = (value: unknown): number => (Array.isArray(value) ? value.length : 0);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const strings = (value: unknown): boolean => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** Buckets of a series field (pageStats, siteStats), from its coerced range and granularity. */
function seriesCost(args: Args): FieldCost {
  const range = args.range as { from?: unknown; to?: unknown } | undefined;
  const from = range?.from instanceof Date ? range.from.getTime() : NaN;
  const to = range?.to instanceof Date ? range.to.getTime() : NaN;
  if (!Number.isFinite(from) || !Number.isFinite(to)) return {};
  return { buckets: bucketCount(args.granularity as Granularity, from, to) };
}

export const ROOT_FIELD_POLICIES: Readonly<Record<string, RootFieldPolicy>> = {
  serverInfo: { scope: 'read', sites: () => [] },
  pageStats: { scope: 'read', sites: oneSite, cost: seriesCost },
  // Branch `dashboards`' site-level reads, opened to `read` keys when merged with `security` (branch `browser`).
  siteStats: { scope: 'read', sites: oneSite, cost: seriesCost },
  topPages: { scope: 'read', sites: oneSite },
  breakdown: { scope: 'read', sites: oneSite },
  firstDay: { scope: 'read', sites: oneSite },
  events: { scope: 'read', sites: oneSite },
  properties: { scope: 'read', sites: oneSite },
  conversions: { scope: 'read', sites: oneSite },
  pageStatsLive: { scope: 'read', sites: oneSite },
  userImpressions: { scope: 'read', sites: allSites },
  itemImpressions: { scope: 'read', sites: allSites },
  topImpressions: { scope: 'read', sites: allSites },
  topItems: { scope: 'read', sites: allSites },
  recordHit: {
    scope: 'ingest',
    sites: oneSite,
    cost: () => ({ hits: 1 }),
    rawArgsSuffice: (args) => typeof args.site === 'string',
  },
  recordHits: {
    scope: 'ingest',
    sites: (args) =>
      Array.isArray(args.hits) ? [...new Set(args.hits.map((hit: { site?: unknown }) => String(hit?.site)))] : [],
    cost: (args) => ({ hits: length(args.hits) }),
    // A list sent as one object is coerced to a list of one: only a list counts the same either way.
    rawArgsSuffice: (args) =>
      Array.isArray(args.hits) && args.hits.every((hit) => isRecord(hit) && typeof hit.site === 'string'),
  },
  recordHitColumns: {
    scope: 'ingest',
    // Every site of the dictionary, referenced or not: a key must be allowed all the sites a request names.
    sites: (args) => {
      const columns = args.columns as { sites?: unknown } | undefined;
      return Array.isArray(columns?.sites) ? [...new Set(columns.sites.map(String))] : [];
    },
    cost: (args) => ({ hits: length((args.columns as { pageIndex?: unknown } | undefined)?.pageIndex) }),
    rawArgsSuffice: (args) =>
      isRecord(args.columns) && strings(args.columns.sites) && Array.isArray(args.columns.pageIndex),
  },
  recordImpressions: { scope: 'ingest', sites: allSites, cost: (args) => ({ impressions: length(args.impressions) }) },
  preallocate: { scope: 'admin', sites: oneSite },
  deleteSite: { scope: 'admin', sites: oneSite },
  deletePage: { scope: 'admin', sites: oneSite },
  pendingDeletions: { scope: 'admin', sites: allSites },
};

export const UNLISTED_FIELD_POLICY: RootFieldPolicy = { scope: 'admin', sites: allSites };
