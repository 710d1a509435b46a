/**
 * graphql-js refuses a document over `maxTokens` (GRAPHQL_MAX_TOKENS) with a plain syntax error; both transports
 * report it as the LIMIT_EXCEEDED it is: Apollo's through formatError, graphql-ws's through prepareOperation.
 */
import { LimitExceededError } from '../../errors/LimitExceededError';

/** graphql-js 16 writes "more that"; later versions may fix the typo. */
const TOKEN_LIMIT = /^Syntax Error: Document contains more tha[nt] \d+ tokens\. Parsing aborted\.$/;

/** The typed error when `error` is graphql-js's token-limit refusal, else undefined. */
export function tokenLimitError(
  error: { readonly message: string },
  maxTokens: number,
): LimitExceededError | undefined {
  if (!TOKEN_LIMIT.test(error.message)) return undefined;
  return new LimitExceededError('GRAPHQL_MAX_TOKENS', maxTokens, undefined, 'the number of tokens in the document');
}
