/** One pino logger per process: JSON lines in production, pretty-printed in development. */
import pino from 'pino';
import type { Logger } from 'pino';
import type { LogLevel, NodeEnv } from '../config/loadConfig';

export type { Logger };

export function createLogger(options: { level: LogLevel; nodeEnv: NodeEnv }): Logger {
  const pretty = options.nodeEnv === 'development' && process.stdout.isTTY;
  return pino({
    level: options.level,
    base: { service: 'tally' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  });
}
