/**
 * Runs before any resolver, for HTTP (guardPlugin) and WebSocket (attachSubscriptions) alike: refuses an
 * operation the transport cannot serve, over the root-field limit, not allowed for the principal, or whose
 * summed cost (buckets, hits, impressions over every root field) is over the request limits. Refusing here
 * means nothing of a refused request is executed or written.
 */
import { getArgumentValues, getVariableValues, Kind } from 'graphql';
import type { DocumentNode, FragmentDefinitionNode, GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { collectFields } from 'graphql/execution/collectFields';
import { authorize } from '../../auth/authorize';
import type { Principal } from '../../auth/Principal';
import { BadRequestError } from '../../errors/BadRequestError';
import { LimitExceededError } from '../../errors/LimitExceededError';
import type { RequestLimits } from './RequestLimits';
import { ROOT_FIELD_POLICIES, UNLISTED_FIELD_POLICY } from './rootFieldPolicies';

export interface OperationToCheck {
  readonly schema: GraphQLSchema;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  readonly variables: Readonly<Record<string, unknown>> | undefined;
  readonly principal: Principal;
  readonly transport: 'http' | 'websocket';
}

export function checkOperation(request: OperationToCheck, limits: RequestLimits): void {
  const { schema, operation, principal } = request;
  if (operation.operation === 'subscription' && request.transport === 'http') {
    throw new BadRequestError(
      'subscriptions are served over WebSocket (graphql-ws protocol, path /graphql), not over HTTP',
    );
  }
  const rootType = schema.getRootType(operation.operation);
  if (!rootType) return; // graphql-js validation already refused it.
  const variables = getVariableValues(schema, operation.variableDefinitions ?? [], { ...request.variables });
  // Variables that do not coerce fail execution before any resolver runs; nothing to check here.
  if (variables.errors) return;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of request.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const fields = collectFields(schema, fragments, variables.coerced, rootType, operation.selectionSet);
  if (fields.size > limits.maxRootFields) {
    throw new LimitExceededError('GRAPHQL_MAX_ROOT_FIELDS', limits.maxRootFields, fields.size, 'root fields');
  }
  const totals = new Totals();
  for (const nodes of fields.values()) {
    const node = nodes[0]!;
    const name = node.name.value;
    if (name.startsWith('__')) continue; // __typename, and introspection (switched by GRAPHQL_INTROSPECTION).
    const definition = rootType.getFields()[name];
    if (!definition) continue;
    const args = getArgumentValues(definition, node, variables.coerced);
    const policy = ROOT_FIELD_POLICIES[name] ?? UNLISTED_FIELD_POLICY;
    authorize(principal, policy.scope, policy.sites(args));
    const cost = policy.cost?.(args);
    totals.add('buckets', cost?.buckets);
    totals.add('hits', cost?.hits);
    totals.add('impressions', cost?.impressions);
  }
  totals.check(
    'buckets',
    limits.maxBucketsPerRequest,
    'QUERY_MAX_BUCKETS_PER_REQUEST',
    'the number of buckets over all series of the request',
  );
  totals.check(
    'hits',
    limits.maxHitsPerRequest,
    'INGEST_MAX_BATCH',
    'the number of hits over all fields of the request',
  );
  totals.check(
    'impressions',
    limits.maxImpressionsPerRequest,
    'IMPRESSIONS_MAX_BATCH',
    'the number of impressions over all fields of the request',
  );
}

/**
 * Sums per kind of cost. A single field over a limit on its own is left to its resolver, which refuses it
 * with its own, more specific error (BATCH_TOO_LARGE, QUERY_MAX_BUCKETS); this catches the sums.
 */
class Totals {
  private readonly sums = new Map<string, { total: number; largest: number }>();

  add(kind: string, value: number | undefined): void {
    if (value === undefined) return;
    const sum = this.sums.get(kind) ?? { total: 0, largest: 0 };
    this.sums.set(kind, { total: sum.total + value, largest: Math.max(sum.largest, value) });
  }

  check(kind: string, max: number, limit: string, what: string): void {
    const sum = this.sums.get(kind);
    if (sum && sum.total > max && sum.largest <= max) throw new LimitExceededError(limit, max, sum.total, what);
  }
}
