/** Wraps an AppError that refuses a whole request so Apollo answers with its HTTP status and formatError finds it. */
import { GraphQLError } from 'graphql';
import type { AppError } from '../../errors/AppError';

export function toGraphQLError(error: AppError): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { code: error.code, http: { status: error.httpStatus } },
  });
}
