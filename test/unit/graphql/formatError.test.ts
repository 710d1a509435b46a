/**
 * What GraphQL clients see of an error (HTTP and WebSocket share formatError): normalizeError's code and
 * extensions in GraphQL's shape, the token limit typed, request errors passed through, the rest masked and logged.
 */
import { GraphQLError } from 'graphql';
import { BadUserInputError } from '../../../src/errors/BadUserInputError';
import { LimitExceededError } from '../../../src/errors/LimitExceededError';
import { MAX_MESSAGE_LENGTH } from '../../../src/errors/normalizeError';
import { createFormatError } from '../../../src/graphql/formatError';
import type { FormatErrorOptions } from '../../../src/graphql/formatError';
import type { Logger } from '../../../src/logging/createLogger';

const OPTIONS: FormatErrorOptions = { includeStacktrace: false, hideSuggestions: false, maxTokens: 15_000 };

function formatter(options: Partial<FormatErrorOptions> = {}) {
  const error = jest.fn();
  const format = createFormatError({ error } as unknown as Logger, { ...OPTIONS, ...options });
  return { format: (e: GraphQLError) => format(e.toJSON(), e), logged: error };
}

describe('formatError', () => {
  it("keeps graphql-js's message for an AppError it wrapped, with the AppError's extensions", () => {
    const original = new BadUserInputError('timeZone must be an IANA zone, got "Mars"', 'timeZone');
    const wrapped = new GraphQLError(`Variable "$zone" got invalid value "Mars"; ${original.message}`, {
      originalError: original,
      path: ['pageStats'],
    });
    expect(formatter().format(wrapped)).toEqual({
      message: 'Variable "$zone" got invalid value "Mars"; timeZone must be an IANA zone, got "Mars"',
      path: ['pageStats'],
      extensions: { code: 'BAD_USER_INPUT', field: 'timeZone' },
    });
  });

  it('reports the token-limit syntax error as LIMIT_EXCEEDED naming GRAPHQL_MAX_TOKENS', () => {
    const syntax = new GraphQLError('Syntax Error: Document contains more that 15000 tokens. Parsing aborted.', {
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    });
    expect(formatter().format(syntax)).toEqual({
      message: 'the number of tokens in the document exceeds the limit of 15000 (GRAPHQL_MAX_TOKENS)',
      extensions: { code: 'LIMIT_EXCEEDED', limit: 'GRAPHQL_MAX_TOKENS', max: 15000 },
    });
  });

  it('passes a request error with its own code, dropping the stack trace unless asked for', () => {
    const invalid = new GraphQLError('Cannot query field "nope" on type "Query".', {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', stacktrace: ['at validate'] },
    });
    expect(formatter().format(invalid)).toEqual({
      message: 'Cannot query field "nope" on type "Query".',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(formatter({ includeStacktrace: true }).format(invalid).extensions?.stacktrace).toEqual(['at validate']);
  });

  it('drops "Did you mean" hints when introspection is off', () => {
    const hinted = new GraphQLError('Cannot query field "pagestats" on type "Query". Did you mean "pageStats"?', {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(formatter({ hideSuggestions: true }).format(hinted).message).toBe(
      'Cannot query field "pagestats" on type "Query".',
    );
    expect(formatter().format(hinted).message).toContain('Did you mean "pageStats"?');
  });

  it("answers Apollo's 4xx refusal without a code as BAD_REQUEST", () => {
    const refused = new GraphQLError('provided sha does not match query', { extensions: { http: { status: 400 } } });
    expect(formatter().format(refused)).toEqual({
      message: 'provided sha does not match query',
      extensions: { code: 'BAD_REQUEST' },
    });
  });

  it('cuts a long message', () => {
    const long = new GraphQLError('x'.repeat(2 * MAX_MESSAGE_LENGTH), {
      originalError: new LimitExceededError('L', 1, 2, 'y'),
    });
    expect(formatter().format(long).message).toBe(`${'x'.repeat(MAX_MESSAGE_LENGTH)}…`);
  });

  it('masks an unknown error as INTERNAL_SERVER_ERROR and logs it with its path', () => {
    const cause = new Error('connection pool closed at 10.0.0.7:27017');
    const { format, logged } = formatter();
    expect(format(new GraphQLError(cause.message, { originalError: cause, path: ['pageStats'] }))).toEqual({
      message: 'Internal server error',
      path: ['pageStats'],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(logged).toHaveBeenCalledWith({ err: cause, path: ['pageStats'] }, 'unexpected error while resolving');
    const withStack = formatter({ includeStacktrace: true }).format(new GraphQLError('x', { originalError: cause }));
    expect(withStack.extensions?.stacktrace).toEqual(cause.stack?.split('\n'));
  });
});
