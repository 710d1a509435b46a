/**
 * Prometheus metrics of one process: default process metrics (heap, RSS, event-loop delay), GraphQL requests,
 * MongoDB round trips, and trouble (issue 21): SERVICE_UNAVAILABLE answers by cause, group-commit flushes (duration,
 * size, requests waiting) and their retries, background steps (sweeps, preallocation). Every label has a closed or
 * capped set of values, so the series count is bounded.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  readonly registry: Registry;
  readonly graphqlRequests: Counter<'operation' | 'outcome'>;
  readonly graphqlDuration: Histogram<'operation'>;
  readonly mongodbCommands: Counter<'command'>;
  readonly beaconRequests: Counter<'outcome'>;
  /** Whole-request refusals; counted only through countRejection, which says what one is. */
  readonly rejectedRequests: Counter<'code' | 'limit'>;
  /** SERVICE_UNAVAILABLE answers; counted only through countUnavailable, once per answer. */
  readonly unavailable: Counter<'cause'>;
  readonly flushDuration: Histogram<'outcome'>;
  readonly flushDocuments: Histogram;
  readonly flushQueueDepth: Histogram;
  readonly flushRetries: Counter<'outcome'>;
  readonly backgroundStepDuration: Histogram<'job'>;
  readonly sweptDocuments: Counter<'what'>;
  /** The GraphQL document cache (server/DocumentCache): estimated heap it holds, and its documents. */
  readonly documentCacheBytes: Gauge;
  readonly documentCacheDocuments: Gauge;
  /**
   * The ingest log (INGEST_ACK=log), read at each scrape: bytes on disk, and windows waiting for the database (the
   * open one included). `watchIngestLog` names what to read; nothing is reported before.
   */
  readonly ingestLogBytes: Gauge;
  readonly ingestLogWindows: Gauge;
  watchIngestLog(read: () => { readonly bytes: number; readonly windows: number }): void;
  /** Visit sessions this process remembers (issue 29), read at each scrape (`watchVisitSessions`). */
  readonly visitSessionsCached: Gauge;
  watchVisitSessions(read: () => number): void;
  /** Deletions of sites and pages (issue 30): pending as last seen, read at each scrape (`watchDeletions`). */
  readonly deletionsPending: Gauge;
  readonly deletedDocuments: Counter<'collection'>;
  watchDeletions(read: () => number): void;
}

/** Seconds, from 1 ms to 30 s: flushes and background steps, where a stall is seconds long. */
const SLOW_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Counts (documents, requests), by powers of about 2.5 up to 100,000. */
const COUNT_BUCKETS = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 100_000];

export function createMetrics(): Metrics {
  let ingestLog: (() => { readonly bytes: number; readonly windows: number }) | undefined;
  let deletions: (() => number) | undefined;
  let visitSessions: (() => number) | undefined;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'tally_' });
  return {
    registry,
    graphqlRequests: new Counter({
      name: 'tally_graphql_requests_total',
      help: 'GraphQL requests by operation name and outcome (ok, error).',
      labelNames: ['operation', 'outcome'],
      registers: [registry],
    }),
    graphqlDuration: new Histogram({
      name: 'tally_graphql_request_duration_seconds',
      help: 'GraphQL request latency by operation name.',
      labelNames: ['operation'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    mongodbCommands: new Counter({
      name: 'tally_mongodb_commands_total',
      help: 'Commands sent to MongoDB, by command name (driver command monitoring): database round trips.',
      labelNames: ['command'],
      registers: [registry],
    }),
    beaconRequests: new Counter({
      name: 'tally_beacon_requests_total',
      help: 'POST /api/hit by outcome: counted, bot_user_agent, no_user_agent (not counted), or why it was refused.',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    rejectedRequests: new Counter({
      name: 'tally_requests_rejected_total',
      help: 'Requests (HTTP, or WebSocket operations and messages) refused as a whole before execution for their size, rate, credentials or form, by error code and (LIMIT_EXCEEDED, RATE_LIMITED) the limit.',
      labelNames: ['code', 'limit'],
      registers: [registry],
    }),
    unavailable: new Counter({
      name: 'tally_unavailable_total',
      help: 'Answers with SERVICE_UNAVAILABLE (GraphQL over HTTP and WebSocket, beacon, export), by cause: not_ready, timeout, connection_wait, refused, no_primary, write_concern, closed, other.',
      labelNames: ['cause'],
      registers: [registry],
    }),
    flushDuration: new Histogram({
      name: 'tally_flush_duration_seconds',
      help: 'Group-commit flushes from start to acknowledgement (retries included), by outcome (ok, error).',
      labelNames: ['outcome'],
      buckets: SLOW_BUCKETS,
      registers: [registry],
    }),
    flushDocuments: new Histogram({
      name: 'tally_flush_documents',
      help: 'Counter documents a flush writes (keyed requests counted at three per hit).',
      buckets: COUNT_BUCKETS,
      registers: [registry],
    }),
    flushQueueDepth: new Histogram({
      name: 'tally_flush_queue_depth',
      help: 'Requests waiting for a flush when one starts: those it carries and those queued behind it.',
      buckets: COUNT_BUCKETS,
      registers: [registry],
    }),
    flushRetries: new Counter({
      name: 'tally_flush_retries_total',
      help: 'Re-sends of a marked flush after the database was unavailable (see docs/failures.md), by outcome: written, failed (another try followed or the request got SERVICE_UNAVAILABLE).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    backgroundStepDuration: new Histogram({
      name: 'tally_background_step_duration_seconds',
      help: 'Steps of background work (one read or delete of an expiry sweep, one write of a preallocation), by job; a step over 1 s is also logged.',
      labelNames: ['job'],
      buckets: SLOW_BUCKETS,
      registers: [registry],
    }),
    sweptDocuments: new Counter({
      name: 'tally_swept_documents_total',
      help:
        'Documents handled by background jobs, by job: expired ones deleted by expiry sweeps (engines without TTL ' +
        "indexes), and ones whose past periods' sketches and dimension counters were compacted.",
      labelNames: ['what'],
      registers: [registry],
    }),
    documentCacheBytes: new Gauge({
      name: 'tally_graphql_document_cache_bytes',
      help: 'Heap held by cached parsed GraphQL documents (estimated: 300 bytes a token), at most GRAPHQL_DOCUMENT_CACHE_MB.',
      registers: [registry],
    }),
    documentCacheDocuments: new Gauge({
      name: 'tally_graphql_document_cache_documents',
      help: 'Parsed GraphQL documents in the cache (kept from their second use).',
      registers: [registry],
    }),
    ingestLogBytes: new Gauge({
      name: 'tally_ingest_log_bytes',
      help: 'Bytes the ingest log holds on disk (INGEST_ACK=log): about one window while the database keeps up.',
      registers: [registry],
      collect() {
        const state = ingestLog?.();
        if (state) this.set(state.bytes);
      },
    }),
    ingestLogWindows: new Gauge({
      name: 'tally_ingest_log_windows',
      help: 'Windows of acknowledged hits not yet written to the database (INGEST_ACK=log), the open one included.',
      registers: [registry],
      collect() {
        const state = ingestLog?.();
        if (state) this.set(state.windows);
      },
    }),
    watchIngestLog(read) {
      ingestLog = read;
    },
    visitSessionsCached: new Gauge({
      name: 'tally_visit_sessions_cached',
      help: 'Visit sessions whose state this process remembers (those it wrote within the visit timeout), saving a read per hit.',
      registers: [registry],
      collect() {
        const cached = visitSessions?.();
        if (cached !== undefined) this.set(cached);
      },
    }),
    watchVisitSessions(read) {
      visitSessions = read;
    },
    deletionsPending: new Gauge({
      name: 'tally_deletions_pending',
      help: 'Deletions of sites and pages (deleteSite, deletePage, tally delete) asked for and not done yet, as this instance last saw them.',
      registers: [registry],
      collect() {
        const pending = deletions?.();
        if (pending !== undefined) this.set(pending);
      },
    }),
    deletedDocuments: new Counter({
      name: 'tally_deleted_documents_total',
      help: 'Counter documents deleted by deletions of sites and pages, by collection.',
      labelNames: ['collection'],
      registers: [registry],
    }),
    watchDeletions(read) {
      deletions = read;
    },
  };
}
