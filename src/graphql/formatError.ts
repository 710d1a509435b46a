/**
 * What clients see of an error. Our own AppErrors keep their message and code (wherever graphql-js wrapped
 * them: resolver, variable coercion, literal validation); graphql-js's request errors pass through; Apollo's
 * own 4xx refusals without a code (a persisted query whose hash does not match) become BAD_REQUEST; anything
 * else is masked as INTERNAL_SERVER_ERROR and logged with its stack. Messages are cut to a bounded length,
 * and without introspection graphql-js's "Did you mean …?" hints are dropped: they reveal the schema.
 */
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { AppError } from '../errors/AppError';
import { LimitExceededError } from '../errors/LimitExceededError';
import type { Logger } from '../logging/createLogger';

/** Longest message a client receives; longer ones (graphql-js quotes inputs) are cut. */
export const MAX_MESSAGE_LENGTH = 500;
/** graphql-js 16 writes "more that"; later versions may fix the typo. */
const TOKEN_LIMIT = /^Syntax Error: Document contains more tha[nt] \d+ tokens\. Parsing aborted\.$/;

export interface FormatErrorOptions {
  readonly includeStacktrace: boolean;
  /** Drop "Did you mean" suggestions (when introspection is off). */
  readonly hideSuggestions: boolean;
  /** GRAPHQL_MAX_TOKENS: graphql-js's token-limit syntax error is reported as the LIMIT_EXCEEDED it is. */
  readonly maxTokens: number;
}

export function createFormatError(logger: Logger, options: FormatErrorOptions) {
  const { includeStacktrace } = options;
  const message = (text: string): string => {
    const shown = options.hideSuggestions ? text.replace(/ ?Did you mean .*\?$/s, '') : text;
    return shown.length > MAX_MESSAGE_LENGTH ? `${shown.slice(0, MAX_MESSAGE_LENGTH)}…` : shown;
  };
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = findAppError(error);
    if (original) {
      return {
        message: message(formatted.message),
        ...(formatted.locations ? { locations: formatted.locations } : {}),
        ...(formatted.path ? { path: formatted.path } : {}),
        extensions: {
          code: original.code,
          ...('reason' in original && typeof original.reason === 'string' ? { reason: original.reason } : {}),
          ...('field' in original && typeof original.field === 'string' ? { field: original.field } : {}),
          ...(original instanceof LimitExceededError
            ? {
                limit: original.limit,
                max: original.max,
                ...(original.value === undefined ? {} : { value: original.value }),
              }
            : {}),
        },
      };
    }
    if (TOKEN_LIMIT.test(formatted.message)) {
      const limit = new LimitExceededError(
        'GRAPHQL_MAX_TOKENS',
        options.maxTokens,
        undefined,
        'the number of tokens in the document',
      );
      return { message: limit.message, extensions: { code: limit.code, limit: limit.limit, max: limit.max } };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') {
      const shown = { ...formatted, message: message(formatted.message) };
      return includeStacktrace ? shown : withoutStacktrace(shown);
    }
    if (clientStatus(error)) {
      return { message: message(formatted.message), extensions: { code: 'BAD_REQUEST' } };
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

/** Apollo marks some request refusals only by their HTTP status (4xx) in `extensions.http`. */
function clientStatus(error: unknown): boolean {
  const status = (error as { extensions?: { http?: { status?: unknown } } } | null)?.extensions?.http?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

function withoutStacktrace(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (!formatted.extensions || !('stacktrace' in formatted.extensions)) return formatted;
  const { stacktrace: _omitted, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}
