/**
 * Apollo Server side of checkOperation: runs it once the operation is parsed, validated and chosen, and turns
 * a refusal into a whole-request error with its HTTP status (401, 403, 400) before any resolver runs.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { Context } from '../Context';
import { checkOperation } from './checkOperation';
import type { RequestLimits } from './RequestLimits';
import { toGraphQLError } from './toGraphQLError';

export function guardPlugin(limits: RequestLimits): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return; // Apollo refuses a document without the named operation itself.
          try {
            checkOperation(
              {
                schema,
                document,
                operation,
                variables: request.variables,
                principal: contextValue.principal,
                transport: 'http',
              },
              limits,
            );
          } catch (error) {
            throw toGraphQLError(error);
          }
        },
      };
    },
  };
}
