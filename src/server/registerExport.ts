/**
 * `GET /export`: any series (a page's, or a site's totals when `page` is absent) as a streamed CSV or NDJSON file.
 * Parameters: site, page?, from, to (ISO-8601 with offset), granularity (default DAY), timeZone (default UTC),
 * format (csv | ndjson, default csv). Everything is validated before the first byte is sent, and a refusal is thrown
 * to installErrorHandler (a 4xx with the GraphQL error shape); rows then stream chunk by chunk (exportSeries). With
 * `dimension` (a Dimension enum name such as UTM_SOURCE, or its stored name utmSource) the file is that dimension's
 * breakdown over the range's days instead: every value, ranked, read in one batched read before the first byte. With
 * `event` (a custom event's name, issue 28) the file is that event's series, in the series' columns; with `goals` (a
 * JSON list of goals) each goal's conversions. The
 * optional `authorize` hook runs before any read (the security branch's read-scope check plugs in here).
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/AppError';
import { BadUserInputError } from '../errors/BadUserInputError';
import { describe } from '../errors/describe';
import { parseDateTime } from '../graphql/scalars/DateTimeScalar';
import { DIMENSIONS, isDimension } from '../domain/dimensions/Dimension';
import type { Dimension } from '../domain/dimensions/Dimension';
import { dimensionEnumName, dimensionOfEnumName } from '../domain/dimensions/dimensionEnumName';
import type { Logger } from '../logging/createLogger';
import type { BreakdownQuery, BreakdownRow } from '../query/BreakdownQuery';
import { OTHER } from '../domain/dimensions/dimensionMarkers';
import { EventLoader } from '../query/events/EventLoader';
import type { EventQueries } from '../query/events/EventQueries';
import type { EventDocumentReader } from '../query/events/EventLoader';
import { eventSeries, parseEventSeries } from '../query/events/eventSeries';
import { exportSeries } from '../query/exportSeries';
import { loadStats } from '../query/loadStats';
import type { BreakdownTotals } from '../query/Breakdown';
import { parseSeriesRequest } from '../query/parseSeriesRequest';
import type { SeriesLimits } from '../query/parseSeriesRequest';
import type { SeriesRequest, SpanVisitors } from '../query/Series';
import type { SeriesReader } from '../query/SeriesReader';
import { Granularity } from '../time/Granularity';
import {
  BREAKDOWN_COLUMNS,
  breakdownRows,
  CONVERSION_COLUMNS,
  conversionRows,
  EXPORT_CONTENT_TYPES,
  exportHeader,
  exportRows,
} from './exportFormats';
import type { ExportFormat } from './exportFormats';

/**
 * Throws a typed error when the request may not read `site`: an AppError (UNAUTHENTICATED, FORBIDDEN, …), or any
 * error carrying one of their codes as `code` (normalizeError gives it that code's status).
 */
export type ExportAuthorize = (request: FastifyRequest, site: string) => Promise<void>;

/** What an export reads with; resolved per request, since the server listens before the database is ready. */
export interface ExportDeps {
  readonly reader: SeriesReader;
  readonly limits: SeriesLimits;
  /** Parses and ranks `dimension=` exports. */
  readonly breakdown: BreakdownQuery;
  /** Where `event=` and `goals=` exports read event documents (issue 28). */
  readonly events: EventDocumentReader;
  /** Parses and sums `goals=` exports. */
  readonly eventQueries: EventQueries;
}

export interface ExportRouteOptions {
  /** Throws SERVICE_UNAVAILABLE while the database is not ready. */
  readonly deps: () => ExportDeps;
  readonly clock: () => number;
  readonly logger: Logger;
  readonly authorize?: ExportAuthorize | undefined;
}

const FORMATS: readonly ExportFormat[] = ['csv', 'ndjson'];
const PARAMETERS = new Set([
  'site',
  'page',
  'from',
  'to',
  'granularity',
  'timeZone',
  'format',
  'dimension',
  'event',
  'goals',
]);

export function registerExport(app: FastifyInstance, options: ExportRouteOptions): void {
  app.get('/export', async (request, reply) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    checkParameters(query);
    const format = parseFormat(query.format);
    const deps = options.deps();
    if (query.goals !== undefined) return exportConversions(query, format, deps, options, request, reply);
    if (query.event !== undefined) return exportEventSeries(query, format, deps, options, request, reply);
    if (query.dimension !== undefined) return exportBreakdown(query, format, deps, options, request, reply);
    const series = parseExportRequest(query, deps.limits, options.clock());
    await options.authorize?.(request, series.site);
    const filename = `tally-${series.site.replace(/[^A-Za-z0-9._-]/g, '_')}-${series.granularity.toLowerCase()}.${format}`;
    reply
      .header('content-type', EXPORT_CONTENT_TYPES[format])
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'no-store');
    return reply.send(Readable.from(rows(deps.reader, options.logger, series, format, request)));
  });
}

async function* rows(
  reader: SeriesReader,
  logger: Logger,
  request: SeriesRequest,
  format: ExportFormat,
  http: FastifyRequest,
): AsyncGenerator<string> {
  yield exportHeader(format);
  try {
    for await (const chunk of exportSeries(reader, request)) yield exportRows(format, chunk);
  } catch (error) {
    // Headers are sent: the client sees a truncated file (no final line end), and we log why.
    logger.error({ err: error, url: http.url }, 'export failed while streaming');
    throw error;
  }
}

async function exportBreakdown(
  query: Record<string, unknown>,
  format: ExportFormat,
  deps: ExportDeps,
  options: ExportRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const dimension = parseDimension(single(query, 'dimension', true) as string);
  if (query.granularity !== undefined) {
    throw new BadUserInputError(
      `granularity does not apply to a breakdown (dimension=${single(query, 'dimension', true)}): it counts whole days; leave it out`,
      'granularity',
    );
  }
  const parsed = deps.breakdown.parse({
    site: single(query, 'site', true) as string,
    page: single(query, 'page', false),
    dimension,
    from: dateTime(query, 'from'),
    to: dateTime(query, 'to'),
    timeZone: single(query, 'timeZone', false),
    visitors: true,
    visits: true,
    now: options.clock(),
  });
  await options.authorize?.(request, parsed.request.site);
  const [totals] = await loadStats(deps.reader, [{ kind: 'breakdown', request: parsed.request }]);
  if (totals instanceof Error || totals === undefined) throw totals ?? new Error('breakdown export read nothing');
  const result = deps.breakdown.rank(totals as BreakdownTotals, parsed);
  const rows: BreakdownRow[] = result.edges.map((edge) => edge.node);
  if (result.other > 0) rows.push({ value: OTHER, hits: result.other, visitors: null });
  const site = parsed.request.site.replace(/[^A-Za-z0-9._-]/g, '_');
  return reply
    .header('content-type', EXPORT_CONTENT_TYPES[format])
    .header('content-disposition', `attachment; filename="tally-${site}-${dimension}.${format}"`)
    .header('cache-control', 'no-store')
    .send(exportHeader(format, BREAKDOWN_COLUMNS) + breakdownRows(format, rows));
}

/**
 * `event=Signup`: that event's series (occurrences and visitors per bucket) in the series' columns; DAY, WEEK or
 * MONTH buckets from UTC midnight, read in one batched read (one find per event collection) before the first byte.
 */
async function exportEventSeries(
  query: Record<string, unknown>,
  format: ExportFormat,
  deps: ExportDeps,
  options: ExportRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  if (query.dimension !== undefined) {
    throw new BadUserInputError('event and dimension cannot be combined in one export', 'dimension');
  }
  const series = parseExportRequest(query, deps.limits, options.clock());
  const key = parseEventSeries([series], single(query, 'event', true) as string);
  await options.authorize?.(request, series.site);
  const loader = new EventLoader(deps.events);
  const result = await eventSeries(series, key, (span) => loader.load(span));
  const site = series.site.replace(/[^A-Za-z0-9._-]/g, '_');
  return reply
    .header('content-type', EXPORT_CONTENT_TYPES[format])
    .header(
      'content-disposition',
      `attachment; filename="tally-${site}-event-${series.granularity.toLowerCase()}.${format}"`,
    )
    .header('cache-control', 'no-store')
    .send(exportHeader(format) + exportRows(format, result));
}

/**
 * `goals=[{"event":"Signup"},{"page":"/blog/**"}]` (JSON, as GoalInput): each goal's conversions over the range's
 * days, one row each: `goal`, `events`, `visitors`, `conversionRate`, `revenue` (`29.90 EUR; 5.00 USD`).
 */
async function exportConversions(
  query: Record<string, unknown>,
  format: ExportFormat,
  deps: ExportDeps,
  options: ExportRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  for (const name of ['granularity', 'dimension', 'event'] as const) {
    if (query[name] !== undefined) {
      throw new BadUserInputError(`${name} does not apply to a conversions export (goals=); leave it out`, name);
    }
  }
  let goals: unknown;
  try {
    goals = JSON.parse(single(query, 'goals', true) as string);
  } catch {
    throw new BadUserInputError('goals must be a JSON list such as [{"event":"Signup"},{"page":"/blog/**"}]', 'goals');
  }
  if (!Array.isArray(goals) || !goals.every((g) => g !== null && typeof g === 'object' && !Array.isArray(g))) {
    throw new BadUserInputError(`goals must be a JSON list of objects, got ${describe(goals)}`, 'goals');
  }
  const span = deps.eventQueries.parseSpan(
    {
      site: single(query, 'site', true) as string,
      page: single(query, 'page', false),
      from: dateTime(query, 'from'),
      to: dateTime(query, 'to'),
      timeZone: single(query, 'timeZone', false),
    },
    'export',
  );
  const parsed = deps.eventQueries.parseGoals(goals as Array<{ event?: string | null; page?: string | null }>);
  await options.authorize?.(request, span.site);
  const loader = new EventLoader(deps.events);
  const conversions = await deps.eventQueries.conversions(span, parsed, {
    events: (s) => loader.load(s),
    siteVisitors: async (s) => {
      const [answer] = await loadStats(deps.reader, [{ kind: 'visitors', request: s }]);
      if (answer === undefined || answer instanceof Error) throw answer ?? new Error('no site visitors');
      return (answer as SpanVisitors).visitors;
    },
  });
  const site = span.site.replace(/[^A-Za-z0-9._-]/g, '_');
  return reply
    .header('content-type', EXPORT_CONTENT_TYPES[format])
    .header('content-disposition', `attachment; filename="tally-${site}-conversions.${format}"`)
    .header('cache-control', 'no-store')
    .send(exportHeader(format, CONVERSION_COLUMNS) + conversionRows(format, conversions));
}

function checkParameters(query: Record<string, unknown>): void {
  for (const name of Object.keys(query)) {
    if (!PARAMETERS.has(name)) {
      throw new BadUserInputError(
        `unknown parameter ${describe(name)}; expected some of ${[...PARAMETERS].join(', ')}`,
        name,
      );
    }
  }
}

/** A Dimension enum name (UTM_SOURCE) or a stored name (utmSource). */
function parseDimension(name: string): Dimension {
  const dimension = dimensionOfEnumName(name) ?? (isDimension(name) ? name : undefined);
  if (dimension === undefined) {
    throw new BadUserInputError(
      `dimension must be one of ${DIMENSIONS.map(dimensionEnumName).join(', ')}, got ${describe(name)}`,
      'dimension',
    );
  }
  return dimension;
}

function parseExportRequest(query: Record<string, unknown>, limits: SeriesLimits, now: number): SeriesRequest {
  const site = single(query, 'site', true) as string;
  const page = single(query, 'page', false);
  const granularity = single(query, 'granularity', false) ?? Granularity.DAY;
  if (!(Object.values(Granularity) as string[]).includes(granularity)) {
    throw new BadUserInputError(
      `granularity must be one of ${Object.values(Granularity).join(', ')}, got ${describe(granularity)}`,
      'granularity',
    );
  }
  const request = parseSeriesRequest(
    {
      site,
      page,
      granularity: granularity as Granularity,
      from: dateTime(query, 'from'),
      to: dateTime(query, 'to'),
      timeZone: single(query, 'timeZone', false),
      visitors: true,
      visits: true,
    },
    limits,
    now,
  );
  // The file has a visitors column per bucket and no range total: no covering periods to read.
  return { ...request, visitors: { ...request.visitors, pointsOnly: true } };
}

function parseFormat(value: unknown): ExportFormat {
  if (value === undefined) return 'csv';
  if (typeof value === 'string' && (FORMATS as readonly string[]).includes(value)) return value as ExportFormat;
  throw new BadUserInputError(`format must be csv or ndjson, got ${describe(value)}`, 'format');
}

function single(query: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = query[name];
  if (value === undefined) {
    if (required) throw new BadUserInputError(`${name} is required`, name);
    return undefined;
  }
  if (typeof value !== 'string')
    throw new BadUserInputError(`${name} must be given once, got ${describe(value)}`, name);
  return value;
}

function dateTime(query: Record<string, unknown>, name: 'from' | 'to'): Date {
  const value = single(query, name, true);
  try {
    return parseDateTime(value);
  } catch (error) {
    if (error instanceof AppError) throw new BadUserInputError(`${name}: ${error.message}`, name);
    throw error;
  }
}
