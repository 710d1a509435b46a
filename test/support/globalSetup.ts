/** Starts the embedded MongoDB-compatible server once for the whole run, unless MONGODB_URI points at one. */
import { createLogger } from '../../src/logging/createLogger';
import { connectDatabase } from '../../src/store/connectDatabase';
import { startEmbeddedDatabase } from '../../src/store/embedded/startEmbeddedDatabase';
import type { EmbeddedDatabase } from '../../src/store/embedded/startEmbeddedDatabase';

declare global {
  var __TALLY_EMBEDDED__: EmbeddedDatabase | undefined;
}

export default async function globalSetup(): Promise<void> {
  if (!process.env.MONGODB_URI) {
    const engine = (process.env.TALLY_EMBEDDED_ENGINE ?? 'auto') as 'auto' | 'mongod' | 'ferretdb';
    const logger = createLogger({ level: 'warn', nodeEnv: 'test' });
    const embedded = await startEmbeddedDatabase({ engine, dataDir: undefined, logger, now: Date.now() });
    globalThis.__TALLY_EMBEDDED__ = embedded;
    // Workers start after this and inherit the environment.
    process.env.MONGODB_URI = embedded.uri;
    process.env.TALLY_TEST_ENGINE = embedded.engine;
  }
  process.env.TALLY_TEST_ATOMIC_UPDATES = String(await atomicDocumentUpdates(process.env.MONGODB_URI));
}

/** Whether several processes may update one document on the run's server (suites that need it skip otherwise). */
async function atomicDocumentUpdates(uri: string): Promise<boolean> {
  const database = await connectDatabase({
    uri,
    dbName: 'tally_test_setup',
    logger: createLogger({ level: 'silent', nodeEnv: 'test' }),
  });
  try {
    return database.engine.atomicDocumentUpdates;
  } finally {
    await database.close();
  }
}
