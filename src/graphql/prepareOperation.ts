/**
 * The steps before execution, for a transport that has none of its own (graphql-ws): parse under the token limit,
 * validate with graphql-js's rules plus ours (createValidationRules), choose the operation, guard it
 * (guardOperation: transport, root fields, scopes and sites, summed costs). Apollo runs the first three itself
 * and then the same guard (guardPlugin) and the same error typing (tokenLimitError, in formatError). A refusal is
 * typed like Apollo's over HTTP: our AppError as `originalError`, or graphql-js's error with Apollo's code.
 */
import { getOperationAST, GraphQLError, parse, specifiedRules, validate } from 'graphql';
import type { DocumentNode, GraphQLSchema, OperationDefinitionNode, ValidationRule } from 'graphql';
import type { Principal } from '../auth/Principal';
import { BadRequestError } from '../errors/BadRequestError';
import { guardOperation } from './guard/guardOperation';
import type { RequestLimits } from './guard/RequestLimits';
import { tokenLimitError } from './guard/tokenLimitError';
import { toGraphQLError } from './guard/toGraphQLError';

export interface OperationRequest {
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>> | null | undefined;
  readonly operationName?: string | null | undefined;
  readonly principal: Principal;
  readonly transport: 'http' | 'websocket';
}

/** Ready for `execute`/`subscribe` (with the request's variables and operation name), or refused before it. */
export type PreparedOperation =
  | { readonly ok: true; readonly document: DocumentNode; readonly operation: OperationDefinitionNode }
  | { readonly ok: false; readonly errors: readonly GraphQLError[] };

export function createOperationPreparer(options: {
  readonly schema: GraphQLSchema;
  /** createValidationRules' rules; graphql-js's specifiedRules run first, as in Apollo. */
  readonly validationRules: readonly ValidationRule[];
  readonly limits: RequestLimits;
}): (request: OperationRequest) => PreparedOperation {
  const { schema, limits } = options;
  const rules = [...specifiedRules, ...options.validationRules];
  const refuse = (errors: readonly GraphQLError[]): PreparedOperation => ({ ok: false, errors });
  return (request) => {
    let document: DocumentNode;
    try {
      document = parse(request.query, { maxTokens: limits.maxTokens });
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      const tokens = tokenLimitError(error, limits.maxTokens);
      return refuse([tokens ? toGraphQLError(tokens) : withCode(error, 'GRAPHQL_PARSE_FAILED')]);
    }
    const invalid = validate(schema, document, rules);
    if (invalid.length > 0) return refuse(invalid.map((error) => withCode(error, 'GRAPHQL_VALIDATION_FAILED')));
    const operation = getOperationAST(document, request.operationName);
    if (!operation) {
      return refuse([
        toGraphQLError(
          new BadRequestError('the document must hold exactly one operation, or name one in operationName'),
        ),
      ]);
    }
    const refusal = guardOperation(
      {
        schema,
        document,
        operation,
        variables: request.variables ?? undefined,
        principal: request.principal,
        transport: request.transport,
      },
      limits,
    );
    return refusal ? refuse([refusal]) : { ok: true, document, operation };
  };
}

/** graphql-js's request errors carry no code; Apollo adds these same ones over HTTP. */
function withCode(error: GraphQLError, code: string): GraphQLError {
  if (error.extensions.code !== undefined) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}
