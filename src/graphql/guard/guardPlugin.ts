/**
 * Apollo Server side of guardOperation: runs it once Apollo has parsed, validated and chosen the operation, and
 * throws its refusal as a whole-request error with its HTTP status (401, 403, 400) before any resolver runs.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { Context } from '../Context';
import { guardOperation } from './guardOperation';
import type { RequestLimits } from './RequestLimits';

export function guardPlugin(limits: RequestLimits): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request, contextValue }) {
          if (!operation) return; // Apollo refuses a document without the named operation itself.
          const refusal = guardOperation(
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
          if (refusal) throw refusal;
        },
      };
    },
  };
}
