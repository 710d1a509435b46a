/**
 * Entry point: config → logger → app → signal handling. Nothing else lives here.
 *
 * Signals are ours alone (Apollo Server's own handlers are off, see createHttpServer): the first SIGTERM or SIGINT
 * stops accepting, answers in-flight requests, flushes pending hits, closes the database and stops the embedded
 * server, then logs "stopped" and exits 0; past SHUTDOWN_TIMEOUT_MS it exits 1. A signal during start-up (while
 * waiting for the database) undoes the start the same way.
 */
import { startApp } from './app';
import type { App } from './app';
import { ConfigError } from './errors/ConfigError';
import { StartRefusedError } from './errors/StartRefusedError';
import { loadConfig } from './config/loadConfig';
import { createLogger } from './logging/createLogger';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`tally: invalid configuration: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel, nodeEnv: config.nodeEnv });
  const aborter = new AbortController();
  let app: App | undefined;
  let stopping = false;

  const exit = (code: number): void => {
    logger.flush();
    process.exit(code);
  };
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn({ signal }, 'already shutting down');
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown took too long; exiting');
      exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    // Before the app exists, aborting the start-up undoes it (startApp rejects, handled below).
    aborter.abort(new Error(`${signal} during start-up`));
    app?.close().then(
      () => {
        logger.info('stopped');
        exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);

  try {
    app = await startApp(config, logger, Date.now, aborter.signal);
  } catch (error) {
    if (stopping) {
      logger.info('stopped');
      exit(0);
      return;
    }
    if (error instanceof StartRefusedError) {
      process.stderr.write(`tally: refusing to start: ${error.message}\n`);
      exit(2);
      return;
    }
    throw error;
  }
  if (stopping) {
    await app.close();
    logger.info('stopped');
    exit(0);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `tally: failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
