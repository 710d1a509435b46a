/** One pino logger per process: JSON lines in production, pretty-printed in development. */
import pino from 'pino';
import type { Logger } from 'pino';

export type { Logger };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
export type NodeEnv = 'development' | 'production' | 'test';

export function createLogger(options: { level: LogLevel; nodeEnv: NodeEnv }): Logger {
  const pretty = options.nodeEnv === 'development' && process.stdout.isTTY;
  return pino({
    level: options.level,
    base: { service: 'tally' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  });
}
