/**
 * Assembles one tally instance from a Config: database (embedded when MONGODB_URI is unset) → store →
 * ingest → GraphQL → HTTP. Returns a handle whose close() shuts everything down in order.
 */
import type { Config } from './config/loadConfig';
import { createContext } from './graphql/Context';
import { buildSchema } from './graphql/buildSchema';
import type { Services } from './graphql/Services';
import { GroupCommitter } from './ingest/GroupCommitter';
import { HitIngest } from './ingest/HitIngest';
import { PreallocationPlanner } from './ingest/PreallocationPlanner';
import { startPreallocationTicker } from './ingest/startPreallocationTicker';
import type { Logger } from './logging/createLogger';
import { createMetrics } from './metrics/createMetrics';
import { readVersion } from './readVersion';
import { createHttpServer } from './server/createHttpServer';
import { connectDatabase } from './store/connectDatabase';
import type { Database } from './store/connectDatabase';
import { CounterStore } from './store/CounterStore';
import { startEmbeddedDatabase } from './store/embedded/startEmbeddedDatabase';
import type { EmbeddedDatabase } from './store/embedded/startEmbeddedDatabase';

export interface App {
  readonly url: string;
  readonly services: Services;
  readonly database: Database;
  close(): Promise<void>;
}

const MAX_PENDING_DOCUMENTS = 5_000;
const MAX_TRACKED_PAGES = 1_000_000;

export async function startApp(config: Config, logger: Logger, clock: () => number = Date.now): Promise<App> {
  const metrics = createMetrics();
  let embedded: EmbeddedDatabase | undefined;
  let uri = config.mongodbUri;
  if (uri === undefined) {
    embedded = await startEmbeddedDatabase({
      engine: config.embeddedEngine,
      dataDir: config.embeddedDataDir,
      logger,
      now: clock(),
    });
    uri = embedded.uri;
  }
  const database = await connectDatabase({
    uri,
    dbName: config.mongodbDb,
    logger,
    onCommand: (command) => metrics.mongodbCommands.inc({ command }),
  });
  const counters = new CounterStore(database, { writeConcern: config.ingest.writeConcern });
  await counters.ensureIndexes();

  const committer = new GroupCommitter((batch) => counters.write(batch), {
    intervalMs: config.ingest.flushIntervalMs,
    concurrency: database.engine.requiresSingleWriter ? 1 : config.ingest.flushConcurrency,
    maxPendingDocuments: MAX_PENDING_DOCUMENTS,
  });
  const planner = config.ingest.preallocate ? new PreallocationPlanner(MAX_TRACKED_PAGES) : undefined;
  const ticker = planner ? startPreallocationTicker({ planner, store: counters, clock, logger }) : undefined;
  const services: Services = {
    version: readVersion(),
    engine: database.engine,
    databaseName: config.mongodbDb,
    ingest: new HitIngest({ committer, planner, clock, limits: config.ingest }),
    counters,
    seriesReader: counters,
    seriesLimits: config.query,
  };

  const { app } = await createHttpServer({
    schema: buildSchema(),
    context: async () => createContext(services),
    metrics,
    logger,
    ready: () => database.ping(),
    introspection: config.introspection,
    playground: config.playground,
    includeStacktrace: config.includeStacktrace,
  });
  const address = await app.listen({ host: config.host, port: config.port });
  logger.info({ url: `${address}/graphql` }, 'tally is serving GraphQL');

  let closing: Promise<void> | undefined;
  return {
    url: address,
    services,
    database,
    close() {
      closing ??= (async () => {
        await app.close();
        ticker?.stop();
        await committer.drain();
        await database.close();
        await embedded?.stop();
      })();
      return closing;
    },
  };
}
