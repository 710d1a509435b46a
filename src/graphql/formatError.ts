/**
 * What GraphQL clients see of an error, over HTTP (Apollo) and WebSocket (graphql-ws) alike. The status, code and
 * extensions come from normalizeError; this adds GraphQL's shape: our AppErrors keep graphql-js's message (which
 * names the variable or argument when graphql-js wrapped them in coercion or literal validation), locations and
 * path; the token-limit syntax error is reported as LIMIT_EXCEEDED; graphql-js's and Apollo's own request errors
 * pass through; anything else is masked as INTERNAL_SERVER_ERROR and logged with its stack. Without introspection
 * graphql-js's "Did you mean …?" hints are dropped: they reveal the schema.
 */
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { boundMessage, normalizeError } from '../errors/normalizeError';
import type { Logger } from '../logging/createLogger';
import { tokenLimitError } from './guard/tokenLimitError';

export interface FormatErrorOptions {
  readonly includeStacktrace: boolean;
  /** Drop "Did you mean" suggestions (when introspection is off). */
  readonly hideSuggestions: boolean;
  /** GRAPHQL_MAX_TOKENS: graphql-js's token-limit syntax error is reported as the LIMIT_EXCEEDED it is. */
  readonly maxTokens: number;
}

export type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

export function createFormatError(logger: Logger, options: FormatErrorOptions): FormatError {
  const { includeStacktrace } = options;
  const message = (text: string): string =>
    boundMessage(options.hideSuggestions ? text.replace(/ ?Did you mean .*\?$/s, '') : text);
  return (formatted, error) => {
    const tokens = tokenLimitError(formatted, options.maxTokens);
    if (tokens) {
      const limit = normalizeError(tokens);
      return { message: limit.message, extensions: { ...limit.extensions } };
    }
    const normalized = normalizeError(error);
    if (normalized.appError) {
      return {
        message: message(formatted.message),
        ...(formatted.locations ? { locations: formatted.locations } : {}),
        ...(formatted.path ? { path: formatted.path } : {}),
        extensions: { ...normalized.extensions },
      };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR') {
      const shown = { ...formatted, message: message(formatted.message) };
      return includeStacktrace ? shown : withoutStacktrace(shown);
    }
    if (!normalized.masked) {
      // Apollo's own 4xx refusals without a code (a persisted query whose hash does not match): BAD_REQUEST.
      return { message: message(formatted.message), extensions: { ...normalized.extensions } };
    }
    const cause = unwrapResolverError(error);
    logger.error({ err: cause, path: formatted.path }, 'unexpected error while resolving');
    return {
      message: normalized.message,
      ...(formatted.path ? { path: formatted.path } : {}),
      extensions: {
        ...normalized.extensions,
        ...(includeStacktrace && cause instanceof Error ? { stacktrace: cause.stack?.split('\n') } : {}),
      },
    };
  };
}

function withoutStacktrace(formatted: GraphQLFormattedError): GraphQLFormattedError {
  if (!formatted.extensions || !('stacktrace' in formatted.extensions)) return formatted;
  const { stacktrace: _omitted, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}
