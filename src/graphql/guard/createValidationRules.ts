/**
 * The validation rules both transports add to graphql-js's own: graphql-armor's depth and alias limits
 * (plain graphql-js rules, so they work with Apollo Server 5 and graphql-ws alike), reported as our typed
 * LIMIT_EXCEEDED naming the limit, plus no introspection when it is switched off (Apollo does that itself
 * for HTTP; graphql-ws needs it here). Introspection is not measured by the depth limit: graphql-js's
 * MaxIntrospectionDepthRule (in specifiedRules since 16.9, so on both transports) bounds it instead.
 */
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { GraphQLError, Kind, NoSchemaIntrospectionCustomRule } from 'graphql';
import type { OperationDefinitionNode, ValidationContext, ValidationRule } from 'graphql';
import { LimitExceededError } from '../../errors/LimitExceededError';
import type { RequestLimits } from './RequestLimits';

/** armor reports the count only in its message: "… limit of 15 exceeded, found 16." */
const FOUND = /found (\d+)\.?$/;
/** The introspection root fields; `__typename` is a leaf and counts like any field. */
const INTROSPECTION = new Set(['__schema', '__type']);

export function createValidationRules(
  limits: Pick<RequestLimits, 'maxDepth' | 'maxAliases'>,
  options: { introspection: boolean },
): ValidationRule[] {
  const report =
    (limit: string, max: number, what: string) =>
    (context: ValidationContext | null, error: GraphQLError): void => {
      const found = FOUND.exec(error.message);
      const typed = new LimitExceededError(limit, max, found ? Number(found[1]) : undefined, what);
      context?.reportError(new GraphQLError(typed.message, { originalError: typed, extensions: { code: typed.code } }));
    };
  const depth = maxDepthRule({
    n: limits.maxDepth,
    flattenFragments: true,
    // armor 2.4 skips `__schema` only; withoutIntrospection drops `__type` (tools' `ofType` chains) as well.
    ignoreIntrospection: true,
    propagateOnRejection: false,
    onReject: [report('GRAPHQL_MAX_DEPTH', limits.maxDepth, 'the depth of the operation')],
  });
  const rules: ValidationRule[] = [
    (context) => {
      const visitor = depth(context);
      return {
        OperationDefinition: (operation) => visitor.onOperationDefinitionEnter(withoutIntrospection(operation)),
      };
    },
    maxAliasesRule({
      n: limits.maxAliases,
      propagateOnRejection: false,
      onReject: [report('GRAPHQL_MAX_ALIASES', limits.maxAliases, 'the number of aliases in the operation')],
    }) as unknown as ValidationRule,
  ];
  if (!options.introspection) rules.push(NoSchemaIntrospectionCustomRule);
  return rules;
}

/**
 * The operation as the depth limit measures it: without its introspection root fields. Through a fragment spread
 * they still count (stricter, never looser); tools and GraphiQL select them directly.
 */
function withoutIntrospection(operation: OperationDefinitionNode): OperationDefinitionNode {
  const selections = operation.selectionSet.selections.filter(
    (selection) => selection.kind !== Kind.FIELD || !INTROSPECTION.has(selection.name.value),
  );
  return { ...operation, selectionSet: { ...operation.selectionSet, selections } };
}
