/**
 * checkOperation's refusal as the GraphQLError both transports send: Apollo's guardPlugin throws it (Apollo
 * answers with its HTTP status), prepareOperation returns it to graphql-ws. Errors that are not ours propagate.
 */
import type { GraphQLError } from 'graphql';
import { AppError } from '../../errors/AppError';
import { checkOperation } from './checkOperation';
import type { OperationToCheck } from './checkOperation';
import type { RequestLimits } from './RequestLimits';
import { toGraphQLError } from './toGraphQLError';

export function guardOperation(request: OperationToCheck, limits: RequestLimits): GraphQLError | undefined {
  try {
    checkOperation(request, limits);
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return toGraphQLError(error);
    throw error;
  }
}
