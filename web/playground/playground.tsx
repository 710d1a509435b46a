/**
 * The playground served at GET /graphql for browsers: GraphiQL (schema explorer, docs, history, headers
 * editor) bundled at build time, so nothing is fetched from anywhere but this server. Queries and mutations
 * go over HTTP with the headers typed in the Headers tab; subscriptions over graphql-ws with the same
 * Authorization header as connectionParams.
 */
import { GraphiQL } from 'graphiql';
import type { GraphiQLProps } from 'graphiql';
import 'graphiql/style.css';
import { parse } from 'graphql';
import type { OperationDefinitionNode } from 'graphql';
import { createRoot } from 'react-dom/client';
import { postGraphQL, wsClient } from '../shared/graphqlTransport';
import type { GraphQLRequest } from '../shared/graphqlTransport';
import { exampleQuery, exampleVariables } from './example';

type Fetcher = GraphiQLProps['fetcher'];

function isSubscription(request: GraphQLRequest): boolean {
  try {
    const operations = parse(request.query).definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition',
    );
    const chosen = request.operationName
      ? operations.find((o) => o.name?.value === request.operationName)
      : operations[0];
    return chosen?.operation === 'subscription';
  } catch {
    return false; // let the server report the syntax error
  }
}

function authorizationOf(headers: Record<string, unknown> | undefined): string | undefined {
  const entry = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization');
  return typeof entry?.[1] === 'string' ? entry[1] : undefined;
}

const fetcher: Fetcher = (params, options) => {
  const headers = Object.fromEntries(
    Object.entries(options?.headers ?? {}).map(([name, value]) => [name, String(value)]),
  );
  // GraphiQL types results as graphql-js ExecutionResults; on the wire (and in what it renders) errors are
  // the formatted JSON shape, which is what both transports return.
  if (isSubscription(params)) {
    return wsClient(authorizationOf(headers)).iterate({
      query: params.query,
      variables: params.variables ?? undefined,
      operationName: params.operationName ?? undefined,
    }) as unknown as ReturnType<Fetcher>;
  }
  return postGraphQL(params, headers) as unknown as ReturnType<Fetcher>;
};

/** GraphiQL keeps its tabs in localStorage; the example (with a fresh last hour) fills only a first visit. */
function firstVisit(): boolean {
  try {
    return localStorage.getItem('graphiql:tabState') === null;
  } catch {
    return true;
  }
}

const root = document.getElementById('graphiql');
if (root) {
  const example = firstVisit() ? { query: exampleQuery, variables: exampleVariables(Date.now()) } : {};
  createRoot(root).render(
    <GraphiQL
      fetcher={fetcher}
      defaultQuery={exampleQuery}
      {...example}
      defaultHeaders={'{\n  \n}'}
      isHeadersEditorEnabled
      shouldPersistHeaders={false}
      defaultEditorToolsVisibility="variables"
    />,
  );
}
