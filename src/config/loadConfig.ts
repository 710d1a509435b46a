/**
 * Reads and validates every environment variable once, at start-up, into one typed object.
 * Downstream code trusts the result and never reads process.env itself.
 */
import fs from 'node:fs';
import { isLoopbackHost } from '../auth/isLoopbackHost';
import { NO_KEYS } from '../auth/Keys';
import type { Keys } from '../auth/Keys';
import { parseKeys } from '../auth/parseKeys';
import { ConfigError } from '../errors/ConfigError';
import { DIMENSIONS, isDimension } from '../domain/dimensions/Dimension';
import type { Dimension } from '../domain/dimensions/Dimension';
import { SALT_ROTATIONS } from '../ingest/saltPeriod';
import type { SaltRotation } from '../ingest/saltPeriod';
import type { LogLevel, NodeEnv } from '../logging/createLogger';
import {
  dimensionDocumentBytes,
  largestDimensionMaxValues,
  MAX_DIMENSION_FIELD_BYTES,
} from '../store/dimensionDocumentBytes';
import type { EmbeddedEngine } from '../store/embedded/EmbeddedDatabase';
import { MAX_NICENESS } from '../store/embedded/lowerPriority';
import type { RetentionSettings } from '../time/retentionCutoffs';
import { parseTrustProxy } from './parseTrustProxy';
import type { TrustProxy } from './parseTrustProxy';

export type { EmbeddedEngine, LogLevel, NodeEnv, SaltRotation, TrustProxy };

/** How counter documents are addressed: `auto` keeps the engine's write policy (src/store/WritePolicy.ts). */
export type DocumentTargeting = 'auto' | 'shardKey' | 'idOnly';

export interface Config {
  readonly nodeEnv: NodeEnv;
  readonly host: string;
  readonly port: number;
  /** Undefined means: start an embedded MongoDB-compatible server. */
  readonly mongodbUri: string | undefined;
  readonly mongodbDb: string;
  readonly embeddedEngine: EmbeddedEngine;
  readonly documentTargeting: DocumentTargeting;
  /** WRITE_MAX_UPDATES_PER_COMMAND: unset keeps the engine's limit (none on MongoDB and tally's FerretDB). */
  readonly maxUpdatesPerCommand: number | undefined;
  /** Where the embedded server keeps its files; undefined means a temporary directory removed on exit. */
  readonly embeddedDataDir: string | undefined;
  /**
   * TALLY_EMBEDDED_NICE: the embedded server's nice value (0–19). Default 10 with INGEST_ACK=log, where nobody waits
   * on its writes, so a busy machine runs tally's requests first; 0 with INGEST_ACK=database.
   */
  readonly embeddedNiceness: number;
  readonly logLevel: LogLevel;
  readonly introspection: boolean;
  readonly playground: boolean;
  readonly includeStacktrace: boolean;
  readonly shutdownTimeoutMs: number;
  /** Where `npm run build` put the browser assets; undefined means dist/web under the project root. */
  readonly webDir: string | undefined;
  /** Longest any one database operation may take before it fails as SERVICE_UNAVAILABLE. */
  readonly databaseTimeoutMs: number;
  readonly ingest: IngestConfig;
  readonly query: QueryConfig;
  readonly seconds: SecondsConfig;
  readonly impressions: ImpressionsConfig;
  readonly auth: AuthConfig;
  readonly limits: LimitsConfig;
  /** Serve /metrics on this port (on METRICS_HOST) instead of the API port; undefined keeps it on the API port. */
  readonly metricsPort: number | undefined;
  readonly metricsHost: string;
  readonly dashboards: DashboardsConfig;
  readonly idempotency: IdempotencyConfig;
  /** How often expiry sweeps run where the database has no TTL indexes (SWEEP_INTERVAL_MS); retention, deletions too. */
  readonly sweepIntervalMs: number;
  /** RETENTION_MINUTES_DAYS and RETENTION_DAYS (issue 30): off unless set. */
  readonly retention: RetentionSettings;
  /** Heap the cache of parsed GraphQL documents may hold, in bytes; 0: no cache (GRAPHQL_DOCUMENT_CACHE_MB). */
  readonly documentCacheBytes: number;
  readonly visitors: VisitorsConfig;
  /** VISITS_ENABLED and VISIT_TIMEOUT_MINUTES (issue 29). */
  readonly visits: { readonly enabled: boolean; readonly timeoutMinutes: number };
  readonly dimensions: DimensionsConfig;
  /** TRUST_PROXY: whether request.ip comes from X-Forwarded-For (Fastify's trustProxy). */
  readonly trustProxy: TrustProxy;
}

/** Visitors (issue 19). */
export interface VisitorsConfig {
  /** VISITOR_SALT_ROTATION: how long a beacon visitor stays one visitor (the salt's period). */
  readonly saltRotation: SaltRotation;
}

/** Dimensions (issue 20). */
export interface DimensionsConfig {
  /** Count every hit under one value of every dimension. */
  readonly enabled: boolean;
  /** Distinct keys per dimension a document admits (per writing process); further values count as `(other)`. */
  readonly maxValues: number;
  /** Dimensions whose values keep visitor sketches in site-total documents. */
  readonly visitors: readonly Dimension[];
  /** A `.mmdb` country database; undefined: the bundled one. */
  readonly countryDatabase: string | undefined;
}

/** API keys (README "Security"). */
export interface AuthConfig {
  readonly keys: Keys;
  /** TALLY_AUTH=off: serve GraphQL without keys even on a non-loopback HOST (logged loudly). */
  readonly off: boolean;
}

/** Request limits (README "Security"): each error names its variable. */
export interface LimitsConfig {
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxTokens: number;
  readonly maxRootFields: number;
  readonly maxBucketsPerRequest: number;
  readonly maxBodyBytes: number;
  /** Largest POST /api/hit body: a beacon is a few hundred bytes; 4 KB leaves room for a long page. */
  readonly maxBeaconBodyBytes: number;
  readonly maxWebSocketMessageBytes: number;
  readonly maxSubscriptionsPerConnection: number;
  readonly maxSubscriptions: number;
  /** Requests per window per API key; 0 switches the limit off. */
  readonly ratePerKey: number;
  /** Requests per window per client address (requests without a key); 0 switches the limit off. */
  readonly ratePerAddress: number;
  readonly rateWindowMs: number;
}

/** Idempotency keys on recordHit/recordHits (issue 9). */
export interface IdempotencyConfig {
  /** How long a key is remembered: a retry within it is never counted twice. */
  readonly windowHours: number;
  /** How long an attempt owns its key before another process may re-drive it (longer than any write takes). */
  readonly leaseMs: number;
  /** How long a retry waits for an attempt in progress before answering IDEMPOTENCY_KEY_IN_PROGRESS. */
  readonly waitMs: number;
}

export interface IngestConfig {
  /** Largest `recordHits` batch accepted. */
  readonly maxBatchSize: number;
  /** Largest `count` of one HitInput. */
  readonly maxCount: number;
  /** How far in the future `at` may be, for clients whose clocks run ahead. */
  readonly maxClockSkewMs: number;
  /** EVENT_PROPS_ALLOW_EMAIL: event property values that look like e-mail addresses are accepted. */
  readonly allowEmailProps: boolean;
  /** How long concurrent single hits wait to be written together. */
  readonly flushIntervalMs: number;
  /** Flushes in flight at once (forced to 1 on FerretDB). */
  readonly flushConcurrency: number;
  /** A flush touches at most about this many documents; larger batches are written in several flushes. */
  readonly maxFlushDocuments: number;
  /** `w` of the write concern; undefined keeps the server's default. */
  readonly writeConcern: string | number | undefined;
  readonly preallocate: boolean;
  /**
   * INGEST_ACK: when a request without an idempotency key is answered: once its hits are durable in the local
   * ingest log (`log`, the embedded default; written to the database once per window), or once the database
   * acknowledged them (`database`, the default with MONGODB_URI).
   */
  readonly ack: IngestAck;
  /** FLUSH_WINDOW_MS: with INGEST_ACK=log, how long hits gather before each document is written once. */
  readonly windowMs: number;
  /** FLUSH_IDLE_MS: with INGEST_ACK=log, a window no hit joined for this long is written early (0: never). */
  readonly idleMs: number;
  /** INGEST_LOG_DIR: the ingest log's directory; undefined: `<TALLY_DATA_DIR>/ingest-log` (embedded only). */
  readonly logDir: string | undefined;
}

export const INGEST_ACKS = ['log', 'database'] as const;
export type IngestAck = (typeof INGEST_ACKS)[number];

export interface QueryConfig {
  /** Largest number of buckets one series may return. */
  readonly maxBuckets: number;
}

/** Second-level series (stats.seconds): recent data only, expired after the retention window. */
export interface SecondsConfig {
  /** Count every hit in its second too (one more document update per flush). */
  readonly enabled: boolean;
  /** Preallocate the next hour's minute documents of active pages (default: as PREALLOCATE). */
  readonly preallocate: boolean;
  readonly retentionHours: number;
}

/** Impression counters (impressions.pairs and impressions.items). */
export interface ImpressionsConfig {
  /** Largest `recordImpressions` batch; at most 100,000 so each collection's bulkWrite stays one command. */
  readonly maxBatchSize: number;
  /** Largest `count` of one ImpressionInput (a GraphQL Int, so at most 2^31 - 1). */
  readonly maxCount: number;
  /** Largest `first` of an impression connection. */
  readonly maxPageSize: number;
}

/** Site totals, top pages and export (issue 11). */
export interface DashboardsConfig {
  /** Write site-level documents in every flush (siteStats needs them). */
  readonly siteTotals: boolean;
  /** Largest `first` of a topPages connection. */
  readonly topPagesMaxPage: number;
  /** Distinct pages a site-day document rolls up for topPages (0: no rollup). */
  readonly topPagesRollupPages: number;
  /** Largest number of buckets one GET /export may stream. */
  readonly exportMaxBuckets: number;
}

type Env = Readonly<Record<string, string | undefined>>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const NODE_ENVS: readonly NodeEnv[] = ['development', 'production', 'test'];
const ENGINES: readonly EmbeddedEngine[] = ['auto', 'mongod', 'ferretdb'];
const TARGETINGS: readonly DocumentTargeting[] = ['auto', 'shardKey', 'idOnly'];
/**
 * At 10 the kernel gives the database about a tenth of what it gives tally when both want the same core, and the whole
 * of any core tally leaves idle: the soak at 1,000 recordHit/s held with it and not without (docs/benchmarks.md, "The
 * database behind the requests").
 */
const EMBEDDED_LOG_NICENESS = 10;

export function loadConfig(env: Env = process.env): Config {
  const config = readConfig(env);
  const { keys, off } = config.auth;
  // Secure by default: without secret keys every operation is open, so only this machine may reach it.
  if (keys.keys.length === 0 && !off && !isLoopbackHost(config.host)) {
    throw new ConfigError(
      'HOST',
      'a loopback address while no API keys are configured (set TALLY_KEYS_FILE, or TALLY_AUTH=off to serve without keys)',
      config.host,
    );
  }
  if (env.TALLY_AUTH === 'on' && keys.keys.length === 0) {
    throw new ConfigError('TALLY_AUTH', 'off or unset while no secret keys are configured (TALLY_KEYS_FILE)', 'on');
  }
  if (config.ingest.ack === 'log' && config.mongodbUri !== undefined && config.ingest.logDir === undefined) {
    // A log in a directory nobody chose could sit on a disk that does not outlive the instance.
    throw new ConfigError(
      'INGEST_LOG_DIR',
      'a directory on a persistent disk when INGEST_ACK=log and MONGODB_URI are set',
      '',
    );
  }
  return config;
}

function readConfig(env: Env): Config {
  const nodeEnv = oneOf(env, 'NODE_ENV', NODE_ENVS, 'development');
  const dev = nodeEnv !== 'production';
  const ack = oneOf(env, 'INGEST_ACK', INGEST_ACKS, env.MONGODB_URI ? 'database' : 'log');
  return {
    nodeEnv,
    host: nonEmpty(env, 'HOST', '127.0.0.1'),
    port: integer(env, 'PORT', 4000, 0, 65535),
    mongodbUri: optionalUri(env, 'MONGODB_URI'),
    mongodbDb: databaseName(env, 'MONGODB_DB', 'tally'),
    embeddedEngine: oneOf(env, 'TALLY_EMBEDDED_ENGINE', ENGINES, 'auto'),
    documentTargeting: oneOf(env, 'DOCUMENT_TARGETING', TARGETINGS, 'auto'),
    maxUpdatesPerCommand: optionalInteger(env, 'WRITE_MAX_UPDATES_PER_COMMAND', 1, 100_000),
    embeddedDataDir: env.TALLY_DATA_DIR === '' ? undefined : (env.TALLY_DATA_DIR ?? './data'),
    embeddedNiceness: integer(env, 'TALLY_EMBEDDED_NICE', ack === 'log' ? EMBEDDED_LOG_NICENESS : 0, 0, MAX_NICENESS),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, nodeEnv === 'test' ? 'silent' : 'info'),
    introspection: boolean(env, 'GRAPHQL_INTROSPECTION', dev),
    playground: boolean(env, 'GRAPHQL_PLAYGROUND', dev),
    includeStacktrace: boolean(env, 'GRAPHQL_STACKTRACE', false),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 8000, 100, 600_000),
    webDir: env.TALLY_WEB_DIR === '' ? undefined : env.TALLY_WEB_DIR,
    databaseTimeoutMs: integer(env, 'MONGODB_TIMEOUT_MS', 5000, 100, 600_000),
    ingest: {
      maxBatchSize: integer(env, 'INGEST_MAX_BATCH', 10_000, 1, 1_000_000),
      maxCount: integer(env, 'INGEST_MAX_COUNT', 1_000_000, 1, Number.MAX_SAFE_INTEGER),
      maxClockSkewMs: integer(env, 'INGEST_MAX_CLOCK_SKEW_MS', 300_000, 0, 86_400_000),
      allowEmailProps: boolean(env, 'EVENT_PROPS_ALLOW_EMAIL', false),
      flushIntervalMs: integer(env, 'INGEST_FLUSH_INTERVAL_MS', 5, 0, 10_000),
      flushConcurrency: integer(env, 'INGEST_FLUSH_CONCURRENCY', 4, 1, 256),
      maxFlushDocuments: integer(env, 'INGEST_MAX_FLUSH_DOCUMENTS', 2000, 10, 100_000),
      writeConcern: writeConcern(env, 'MONGODB_WRITE_CONCERN'),
      preallocate: boolean(env, 'PREALLOCATE', false),
      // The embedded default keeps its log beside its database, on the same disk; a MONGODB_URI instance may have none.
      ack,
      // Measured (docs/benchmarks.md, "The window's length"): 10 s writes busy documents a fifth as often as 2 s did.
      windowMs: integer(env, 'FLUSH_WINDOW_MS', 10_000, 10, 60_000),
      idleMs: integer(env, 'FLUSH_IDLE_MS', 1_000, 0, 60_000),
      logDir: env.INGEST_LOG_DIR === '' ? undefined : env.INGEST_LOG_DIR,
    },
    query: {
      maxBuckets: integer(env, 'QUERY_MAX_BUCKETS', 10_000, 1, 1_000_000),
    },
    seconds: {
      enabled: boolean(env, 'SECONDS_ENABLED', true),
      preallocate: boolean(env, 'SECONDS_PREALLOCATE', boolean(env, 'PREALLOCATE', false)),
      retentionHours: integer(env, 'SECONDS_RETENTION_HOURS', 48, 1, 8760),
    },
    impressions: {
      maxBatchSize: integer(env, 'IMPRESSIONS_MAX_BATCH', 10_000, 1, 100_000),
      maxCount: integer(env, 'IMPRESSIONS_MAX_COUNT', 1_000_000, 1, 2_147_483_647),
      maxPageSize: integer(env, 'IMPRESSIONS_MAX_PAGE', 100, 1, 1_000),
    },
    auth: { keys: keys(env), off: authOff(env) },
    limits: {
      maxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', 6, 1, 100),
      maxAliases: integer(env, 'GRAPHQL_MAX_ALIASES', 30, 0, 10_000),
      maxTokens: integer(env, 'GRAPHQL_MAX_TOKENS', 15_000, 10, 1_000_000),
      maxRootFields: integer(env, 'GRAPHQL_MAX_ROOT_FIELDS', 30, 1, 10_000),
      maxBucketsPerRequest: integer(env, 'QUERY_MAX_BUCKETS_PER_REQUEST', 100_000, 1, 100_000_000),
      maxBodyBytes: integer(env, 'HTTP_MAX_BODY_BYTES', 16 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
      maxBeaconBodyBytes: integer(env, 'BEACON_MAX_BODY_BYTES', 4096, 256, 1024 * 1024),
      maxWebSocketMessageBytes: integer(env, 'WS_MAX_MESSAGE_BYTES', 1024 * 1024, 1024, 1024 * 1024 * 1024),
      maxSubscriptionsPerConnection: integer(env, 'WS_MAX_SUBSCRIPTIONS_PER_CONNECTION', 25, 1, 100_000),
      maxSubscriptions: integer(env, 'WS_MAX_SUBSCRIPTIONS', 2_000, 1, 10_000_000),
      ratePerKey: integer(env, 'RATE_LIMIT_PER_KEY', 60_000, 0, 1_000_000_000),
      ratePerAddress: integer(env, 'RATE_LIMIT_PER_ADDRESS', 6_000, 0, 1_000_000_000),
      rateWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 1_000, 86_400_000),
    },
    metricsPort:
      env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? undefined : integer(env, 'METRICS_PORT', 0, 0, 65535),
    metricsHost: nonEmpty(env, 'METRICS_HOST', '127.0.0.1'),
    dashboards: {
      siteTotals: boolean(env, 'SITE_TOTALS_ENABLED', true),
      topPagesMaxPage: integer(env, 'TOP_PAGES_MAX_PAGE', 100, 1, 1_000),
      topPagesRollupPages: integer(env, 'TOP_PAGES_ROLLUP_PAGES', 10_000, 0, 100_000),
      exportMaxBuckets: integer(env, 'EXPORT_MAX_BUCKETS', 100_000, 1, 10_000_000),
    },
    idempotency: {
      windowHours: integer(env, 'IDEMPOTENCY_WINDOW_HOURS', 24, 1, 8760),
      leaseMs: integer(env, 'IDEMPOTENCY_LEASE_MS', 30_000, 100, 3_600_000),
      waitMs: integer(env, 'IDEMPOTENCY_WAIT_MS', 5_000, 0, 600_000),
    },
    sweepIntervalMs: integer(env, 'SWEEP_INTERVAL_MS', 300_000, 1_000, 86_400_000),
    retention: retention(env),
    documentCacheBytes: integer(env, 'GRAPHQL_DOCUMENT_CACHE_MB', 16, 0, 4_096) * 1024 * 1024,
    visitors: { saltRotation: oneOf(env, 'VISITOR_SALT_ROTATION', SALT_ROTATIONS, 'day') },
    visits: {
      enabled: boolean(env, 'VISITS_ENABLED', true),
      timeoutMinutes: integer(env, 'VISIT_TIMEOUT_MINUTES', 30, 1, 1_440),
    },
    dimensions: dimensions(env),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}

/** Longest retention that can be set: a hundred years. */
const MAX_RETENTION_DAYS = 36_500;

function retention(env: Env): RetentionSettings {
  const minutesDays = optionalInteger(env, 'RETENTION_MINUTES_DAYS', 1, MAX_RETENTION_DAYS);
  const days = optionalInteger(env, 'RETENTION_DAYS', 1, MAX_RETENTION_DAYS);
  // Dropping a day's document drops its minutes: a shorter RETENTION_DAYS would make RETENTION_MINUTES_DAYS a lie.
  if (minutesDays !== undefined && days !== undefined && days < minutesDays) {
    throw new ConfigError('RETENTION_DAYS', `at least RETENTION_MINUTES_DAYS (${minutesDays}) or unset`, String(days));
  }
  return { minutesDays, days };
}

/** Default DIMENSION_VISITORS: the dimensions with few values, where per-value visitors cost least. */
const DEFAULT_DIMENSION_VISITORS: readonly Dimension[] = ['device', 'browser', 'os'];
const MAX_DIMENSION_VALUES_CEILING = 100_000;

function dimensions(env: Env): DimensionsConfig {
  const visitors = dimensionList(env, 'DIMENSION_VISITORS', DEFAULT_DIMENSION_VISITORS);
  const ceiling = largestDimensionMaxValues(visitors, MAX_DIMENSION_VALUES_CEILING);
  const maxValues = integer(env, 'DIMENSION_MAX_VALUES', Math.min(1000, ceiling), 1, ceiling);
  // The ceiling keeps the worst case within bounds; say so when a list of dimensions is what lowered it.
  if (dimensionDocumentBytes(maxValues, visitors) > MAX_DIMENSION_FIELD_BYTES) {
    throw new ConfigError(
      'DIMENSION_MAX_VALUES',
      `at most ${ceiling} with these DIMENSION_VISITORS`,
      String(maxValues),
    );
  }
  return {
    enabled: boolean(env, 'DIMENSIONS_ENABLED', true),
    maxValues,
    visitors,
    countryDatabase: readableFile(env, 'COUNTRY_DATABASE'),
  };
}

/** A comma list of dimension names (as DIMENSIONS spells them), or `none`. */
function dimensionList(env: Env, name: string, fallback: readonly Dimension[]): readonly Dimension[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'none') return [];
  const list = raw.split(',').map((entry) => entry.trim());
  if (!list.every(isDimension)) {
    throw new ConfigError(name, `none or a comma list of ${DIMENSIONS.join(', ')}`, raw);
  }
  return [...new Set(list)];
}

function readableFile(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    fs.accessSync(raw, fs.constants.R_OK);
    if (!fs.statSync(raw).isFile()) throw new ConfigError(name, 'a readable file', raw);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(name, 'a readable file', `${raw} (${(error as NodeJS.ErrnoException).code})`);
  }
  return raw;
}

/** The keys file (TALLY_KEYS_FILE) or the same JSON inline (TALLY_KEYS_JSON); read once at start-up. */
function keys(env: Env): Keys {
  const file = env.TALLY_KEYS_FILE;
  const inline = env.TALLY_KEYS_JSON;
  if (file && inline) throw new ConfigError('TALLY_KEYS_FILE', 'unset when TALLY_KEYS_JSON is set', file);
  if (inline) return parseKeys(inline, 'TALLY_KEYS_JSON');
  if (!file) return NO_KEYS;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError('TALLY_KEYS_FILE', 'a readable file', `${file} (${(error as NodeJS.ErrnoException).code})`);
  }
  return parseKeys(text, 'TALLY_KEYS_FILE');
}

function authOff(env: Env): boolean {
  const raw = env.TALLY_AUTH;
  if (raw === undefined || raw === '' || raw === 'on') return false;
  if (raw === 'off') return true;
  throw new ConfigError('TALLY_AUTH', '"on" or "off"', raw);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(name, `one of ${allowed.join(', ')}`, raw);
}

function nonEmpty(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw.trim() !== raw) throw new ConfigError(name, 'a value without surrounding spaces', raw);
  return raw;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `an integer from ${min} to ${max}`, raw);
  }
  return value;
}

/** An integer setting without a default: undefined when unset or empty. */
function optionalInteger(env: Env, name: string, min: number, max: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  return integer(env, name, min, min, max);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, 'true, false, 1 or 0', raw);
}

function optionalUri(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^mongodb(\+srv)?:\/\/.+/.test(raw)) {
    throw new ConfigError(name, 'a mongodb:// or mongodb+srv:// connection string', raw);
  }
  return raw;
}

function databaseName(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  // MongoDB forbids these characters in database names; FerretDB is stricter still.
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(raw)) {
    throw new ConfigError(name, '1 to 63 letters, digits, "_" or "-"', raw);
  }
  return raw;
}

function writeConcern(env: Env, name: string): string | number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (/^\d+$/.test(raw)) return Number(raw);
  if (raw === 'majority') return raw;
  throw new ConfigError(name, 'a number of nodes or "majority"', raw);
}
