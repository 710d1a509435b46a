/**
 * Runs before any resolver, for HTTP (guardPlugin) and WebSocket (attachSubscriptions) alike: refuses an
 * operation the transport cannot serve, over the root-field limit, not allowed for the principal, or whose
 * summed cost (buckets, hits, impressions over every root field) is over the request limits. Refusing here
 * means nothing of a refused request is executed or written.
 */
import { getArgumentValues, getVariableValues, Kind } from 'graphql';
import type {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  GraphQLObjectType,
  GraphQLSchema,
  OperationDefinitionNode,
} from 'graphql';
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
  const fields = rootFieldsAsSent(request, rootType) ?? coercedRootFields(request, rootType);
  // Variables that do not coerce fail execution before any resolver runs; nothing to check here.
  if (!fields) return;
  if (fields.length > limits.maxRootFields) {
    throw new LimitExceededError('GRAPHQL_MAX_ROOT_FIELDS', limits.maxRootFields, fields.length, 'root fields');
  }
  const totals = new Totals();
  for (const { name, args } of fields) {
    if (args === undefined) continue;
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

/** A root field of the operation, by response key, with its arguments (undefined for `__` fields and unknown ones). */
interface RootField {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>> | undefined;
}

/** The root fields with arguments from coerced variables; undefined when the variables do not coerce. */
function coercedRootFields(request: OperationToCheck, rootType: GraphQLObjectType): RootField[] | undefined {
  const { schema, operation } = request;
  const variables = getVariableValues(schema, operation.variableDefinitions ?? [], { ...request.variables });
  if (variables.errors) return undefined;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of request.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const fields = collectFields(schema, fragments, variables.coerced, rootType, operation.selectionSet);
  return [...fields.values()].map((nodes) => rootField(rootType, nodes[0]!, variables.coerced));
}

/**
 * The root fields with arguments from the variables as sent, when that gives the policies what coercion would: a
 * selection of plain fields (no fragment, no directive, so no variable decides which fields run), each with a
 * policy whose rawArgsSuffice accepts its arguments. Otherwise undefined, and the caller coerces.
 */
function rootFieldsAsSent(request: OperationToCheck, rootType: GraphQLObjectType): RootField[] | undefined {
  const variables = request.variables ?? {};
  const byKey = new Map<string, FieldNode>();
  for (const selection of request.operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || (selection.directives?.length ?? 0) > 0) return undefined;
    const key = selection.alias?.value ?? selection.name.value;
    if (!byKey.has(key)) byKey.set(key, selection);
  }
  const fields: RootField[] = [];
  for (const node of byKey.values()) {
    const policy = ROOT_FIELD_POLICIES[node.name.value];
    if (policy?.rawArgsSuffice === undefined) return undefined;
    let field: RootField;
    try {
      field = rootField(rootType, node, variables);
    } catch {
      return undefined; // A missing required variable: coercion reports it.
    }
    if (field.args === undefined || !policy.rawArgsSuffice(field.args)) return undefined;
    fields.push(field);
  }
  return fields;
}

function rootField(
  rootType: GraphQLObjectType,
  node: FieldNode,
  variables: Readonly<Record<string, unknown>>,
): RootField {
  const name = node.name.value;
  // `__` fields: __typename, and introspection (switched by GRAPHQL_INTROSPECTION).
  const definition = name.startsWith('__') ? undefined : rootType.getFields()[name];
  return { name, args: definition ? getArgumentValues(definition, node, variables) : undefined };
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
