/**
 * Assembles one tally instance from a Config. Start-up order: embedded database (when MONGODB_URI is unset) →
 * HTTP (app/startHttp: live at once, not ready) → stores (app/openStores: waits for the database, however long) →
 * services (app/createServices): ready → background jobs (app/startBackgroundJobs).
 *
 * Invariants:
 * - close() undoes it in reverse, once however often it is called: WebSocket subscriptions, then HTTP stops
 *   accepting while pending hits are written (in-flight requests are answered as soon as theirs are), the metrics
 *   port, live polling and background jobs, the last pending hits, the database, the embedded server.
 * - Aborting `signal` during start-up (a SIGTERM while waiting for the database) undoes what was started and
 *   rejects with the abort reason; so does any other start-up failure, with its own error.
 */
import type { Config } from './config/loadConfig';
import { ServiceUnavailableError } from './errors/ServiceUnavailableError';
import type { Services } from './graphql/Services';
import type { Logger } from './logging/createLogger';
import { createMetrics } from './metrics/createMetrics';
import { createServices } from './app/createServices';
import { ingestLogDir } from './app/ingestLogDir';
import { openStores } from './app/openStores';
import { shutdownStep } from './app/shutdownStep';
import type { Stores } from './app/openStores';
import { startBackgroundJobs } from './app/startBackgroundJobs';
import { startHttp } from './app/startHttp';
import type { AppHooks, Http } from './app/startHttp';
import type { Database } from './store/connectDatabase';
import type { Sweep } from './store/ttlOrSweep';
import { startEmbeddedDatabase } from './store/embedded/startEmbeddedDatabase';
import type { EmbeddedDatabase } from './store/embedded/startEmbeddedDatabase';
export type { AppHooks };

export interface App {
  readonly url: string;
  /** Where /metrics is served when METRICS_PORT is set. */
  readonly metricsUrl: string | undefined;
  readonly services: Services;
  readonly database: Database;
  /** The embedded server, when tally started one. */
  readonly embedded: EmbeddedDatabase | undefined;
  close(): Promise<void>;
}

export async function startApp(
  config: Config,
  logger: Logger,
  clock: () => number = Date.now,
  signal?: AbortSignal,
  hooks: AppHooks = {},
): Promise<App> {
  const metrics = createMetrics();
  const embedded =
    config.mongodbUri === undefined
      ? await startEmbeddedDatabase({
          engine: config.embeddedEngine,
          dataDir: config.embeddedDataDir,
          logger,
          now: clock(),
          niceness: config.embeddedNiceness,
        })
      : undefined;
  const uri = config.mongodbUri ?? (embedded as EmbeddedDatabase).uri;

  let ready: { readonly services: Services; readonly database: Database } | undefined;
  const services = (): Services => {
    if (!ready)
      throw new ServiceUnavailableError(
        'tally is starting and the database is not reachable yet; retry later',
        'not_ready',
      );
    return ready.services;
  };
  let http: Http | undefined;
  let stores: Stores | undefined;
  try {
    http = await startHttp(config, {
      logger,
      clock,
      metrics,
      hooks,
      services,
      ready: async () => (ready ? ready.database.ping() : false),
    });
    stores = await openStores(config, {
      uri,
      logger,
      clock,
      metrics,
      signal,
      ingestLogDir: await ingestLogDir(config),
    });
    const { database, pipeline, deletions } = stores;
    ready = { services: createServices(config, stores, clock, logger), database };
    const deletionJob: Sweep = {
      what: 'deletions of sites and pages',
      intervalMs: config.sweepIntervalMs,
      sweep: (_now, context) => deletions.run(context),
    };
    const jobs = startBackgroundJobs(
      { ...pipeline.jobs, sweeps: [...pipeline.jobs.sweeps, deletionJob] },
      clock,
      logger,
      metrics,
    );
    http.announceReady();

    const { live } = ready.services;
    const serving = http;
    let closing: Promise<void> | undefined;
    return {
      url: http.url,
      metricsUrl: http.metricsUrl,
      services: ready.services,
      database,
      embedded,
      close() {
        closing ??= (async () => {
          const step = shutdownStep(logger);
          await step('closing HTTP', () => serving.close(() => pipeline.answerWaiting().catch(() => undefined)));
          live.close();
          jobs.stop();
          // Pending hits are written before the database closes; a write that fails here was never acknowledged.
          await step('writing pending hits', () => pipeline.close());
          await step('closing the database', () => database.close());
          await step('stopping the embedded database', async () => embedded?.stop());
        })();
        return closing;
      },
    };
  } catch (error) {
    await http?.abort();
    await stores?.database.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
}
