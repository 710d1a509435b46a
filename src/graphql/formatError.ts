/**
 * What clients see of an error. Our own AppErrors keep their message and code (wherever graphql-js wrapped
 * them: resolver, variable coercion, literal validation); graphql-js's request errors pass through; anything
 * else is masked as INTERNAL_SERVER_ERROR and logged with its stack.
 */
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { AppError } from '../errors/AppError';
import type { Logger } from '../logging/createLogger';

export function createFormatError(logger: Logger, includeStacktrace: boolean) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = findAppError(error);
    if (original) {
      return {
        message: formatted.message,
        ...(formatted.locations ? { locations: formatted.locations } : {}),
        ...(formatted.path ? { path: formatted.path } : {}),
        extensions: {
          code: original.code,
          ...('reason' in original && typeof original.reason === 'string' ? { reason: original.reason } : {}),
          ...('field' in original && typeof original.field === 'string' ? { field: original.field } : {}),
        },
      };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') {
      return includeStacktrace ? formatted : withoutStacktrace(formatted);
    }
    const cause = unwrapResolverError(error);
    logger.error({ err: cause, path: formatted.path }, 'unexpected error while resolving');
    return {
      message: 'Internal server error',
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: {
        code: 'INTERNAL_SERVER_ERROR',
        ...(includeStacktrace && cause instanceof Error ? { stacktrace: cause.stack?.split('\n') } : {}),
      },
    };
  };
}

function findAppError(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof AppError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

function withoutStacktrace(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (!formatted.extensions || !('stacktrace' in formatted.extensions)) return formatted;
  const { stacktrace: _omitted, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}
