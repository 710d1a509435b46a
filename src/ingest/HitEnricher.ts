/**
 * Turns what a client sent about a hit's visitor and context into what is counted: the visitor's keyed hash and
 * every dimension's value. The raw visitor id, referrer, User-Agent and client IP are validated and used here, then
 * dropped: a Hit carries only the hash and the derived values. One per process (it holds the database's visitor
 * secret and the dimension sources); columnar batches validate and derive each dictionary entry once.
 */
import type { ClientIp } from '../domain/dimensions/ClientIp';
import type { DimensionValues } from '../domain/dimensions/Dimension';
import { deriveDimensions } from '../domain/dimensions/deriveDimensions';
import type { DimensionContext } from '../domain/dimensions/deriveDimensions';
import {
  MAX_PAGE_URL_LENGTH,
  MAX_REFERRER_LENGTH,
  MAX_USER_AGENT_LENGTH,
} from '../domain/dimensions/dimensionInputLimits';
import { DIRECT, NONE, UNKNOWN } from '../domain/dimensions/dimensionMarkers';
import { parseClientIp } from '../domain/dimensions/parseClientIp';
import type { Hit, HitInputFields } from '../domain/Hit';
import { InputRejectedError } from '../domain/InputRejectedError';
import { parseVisitor } from '../domain/parseVisitor';
import { beaconVisitorHash } from '../domain/visitors/beaconVisitorHash';
import type { Hash64 } from '../domain/visitors/Hash64';
import { visitorHash } from '../domain/visitors/visitorHash';
import { checkDictionarySize } from './checkDictionarySize';
import { checkIndexColumn } from './checkIndexColumn';
import { ColumnDimensions } from './ColumnDimensions';
import { COLUMN_DICTIONARIES } from './HitColumnsRequest';
import type { HitColumnsRequest } from './HitColumnsRequest';
import type { DimensionSources } from './loadDimensionSources';
import { parseExplicitDimensions } from './parseExplicitDimensions';

/** What the beacon route saw of a page view: the request's own headers and address, and the page as sent. */
export interface BeaconContext {
  /** The page with its query, as the script sent it: where the UTM parameters are. */
  readonly pageUrl: string;
  readonly referrer: string | undefined;
  readonly userAgent: string;
  /** The client's address (Fastify's request.ip: X-Forwarded-For's when TRUST_PROXY trusts the proxy). */
  readonly clientIp: string;
}

/** A hit without any input for its dimensions, on a page without UTM parameters: what deriveDimensions gives it. */
const MARKERS_ONLY: DimensionValues = {
  source: DIRECT,
  utmSource: NONE,
  utmMedium: NONE,
  utmCampaign: NONE,
  browser: UNKNOWN,
  os: UNKNOWN,
  device: UNKNOWN,
  country: UNKNOWN,
};

export class HitEnricher {
  constructor(
    /** The database's visitor secret (visitors.secret). */
    readonly secret: Uint8Array,
    /** Absent when DIMENSIONS_ENABLED=false: hits carry no dimensions, and their raw inputs are ignored. */
    private readonly sources: DimensionSources | undefined,
  ) {}

  /** A hit of recordHit or recordHits with its visitor and dimensions; `field` names a refused input. */
  enrich(hit: Hit, input: HitInputFields, field: (name: string) => string): Hit {
    const visitor =
      input.visitor == null
        ? undefined
        : visitorHash(
            this.secret,
            parseVisitor(input.visitor, () => field('visitor')),
          );
    const dimensions = this.sources === undefined ? undefined : this.dimensionsOf(hit, input, this.sources, field);
    if (visitor === undefined && dimensions === undefined) return hit;
    return withContext(hit, visitor, dimensions);
  }

  /**
   * A beacon's hit: the cookieless visitor (site, client IP and User-Agent under the period's salt) and the
   * dimensions of what the request carried. Browsers choose these headers, not the site's visitors' clients, so
   * over-long ones are cut instead of refused: a page view is never lost to a header.
   */
  beaconHit(hit: Hit, seen: BeaconContext, salt: Uint8Array): Hit {
    const userAgent = seen.userAgent.slice(0, MAX_USER_AGENT_LENGTH);
    let ip: ClientIp | undefined;
    try {
      ip = parseClientIp(seen.clientIp);
    } catch {
      ip = undefined;
    }
    const visitor =
      ip === undefined ? undefined : beaconVisitorHash({ salt, site: hit.site, clientIp: ip.address, userAgent });
    const dimensions =
      this.sources === undefined
        ? undefined
        : deriveDimensions(
            {
              referrer: seen.referrer?.slice(0, MAX_REFERRER_LENGTH),
              userAgent,
              clientIp: ip?.address,
              pageUrl: seen.pageUrl.slice(0, MAX_PAGE_URL_LENGTH),
            },
            undefined,
            this.context(hit.site, this.sources),
          );
    return withContext(hit, visitor, dimensions);
  }

  /**
   * The hits of a columnar batch (already parsed from its other columns, row for row) with their visitors and
   * dimensions, in place. Refusals name the dictionary entry (`columns.visitors[2]`) or the index (`…Index[7]`).
   */
  enrichColumns(hits: Hit[], columns: HitColumnsRequest, prefix: string): void {
    const rows = hits.length;
    for (const [dictionary] of COLUMN_DICTIONARIES) checkDictionarySize(columns[dictionary], dictionary, rows, prefix);
    const visitorIndex = checkIndexColumn(
      columns.visitors,
      columns.visitorIndex,
      'visitors',
      'visitorIndex',
      rows,
      prefix,
    );
    const visitors = (columns.visitors ?? []).map((visitor, i) =>
      parseVisitor(visitor, () => `${prefix}visitors[${i}]`),
    );
    // Hashed on first use, once per entry.
    const hashes: Array<Hash64 | undefined> = [];
    const visitorOf = (row: number): Hash64 | undefined => {
      const v = visitorIndex === undefined ? -1 : (visitorIndex[row] as number);
      if (v < 0) return undefined;
      return (hashes[v] ??= visitorHash(this.secret, visitors[v] as string));
    };
    const sources = this.sources;
    const derived = sources === undefined ? undefined : new ColumnDimensions(columns, rows, prefix, sources);
    if (derived === undefined && visitorIndex === undefined) return;
    for (let row = 0; row < rows; row++) {
      hits[row] = withContext(hits[row] as Hit, visitorOf(row), derived?.row(row));
    }
  }

  private dimensionsOf(
    hit: Hit,
    input: HitInputFields,
    sources: DimensionSources,
    field: (name: string) => string,
  ): DimensionValues {
    const { referrer, userAgent, clientIp, dimensions } = input;
    if (referrer == null && userAgent == null && clientIp == null && dimensions == null && !hit.page.includes('utm_')) {
      return MARKERS_ONLY;
    }
    const explicit =
      dimensions == null ? undefined : parseExplicitDimensions(dimensions, (name) => field(`dimensions.${name}`));
    try {
      return deriveDimensions(
        { referrer, userAgent, clientIp, pageUrl: hit.page },
        explicit,
        this.context(hit.site, sources),
      );
    } catch (error) {
      throw renamed(error, field);
    }
  }

  private context(site: string, sources: DimensionSources): DimensionContext {
    return { siteHost: site, userAgents: sources.userAgents, countries: sources.countries };
  }
}

/** The hit with its visitor and dimensions; its event, if any, kept. */
function withContext(hit: Hit, visitor: Hash64 | undefined, dimensions: DimensionValues | undefined): Hit {
  const { site, page, at, count, event } = hit;
  return event === undefined
    ? { site, page, at, count, visitor, dimensions }
    : { site, page, at, count, visitor, dimensions, event };
}

/** A refusal of deriveDimensions (named after the input alone) renamed after the hit's own field. */
function renamed(error: unknown, field: (name: string) => string): unknown {
  if (!(error instanceof InputRejectedError) || error.field === undefined) return error;
  const name = field(error.field);
  return new InputRejectedError(error.reason, `${name}${error.message.slice(error.field.length)}`, name);
}
