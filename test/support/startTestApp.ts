/** Starts a whole tally instance on a free port against the test server, with a fresh database. */
import { readMetric } from './readMetric';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { startApp } from '../../src/app';
import type { App, AppHooks } from '../../src/app';
import { loadConfig } from '../../src/config/loadConfig';
import pino from 'pino';
import type { Logger } from '../../src/logging/createLogger';
import { testDatabaseName, testMongoUri } from './testDatabase';

export interface TestApp extends App {
  /** POSTs a GraphQL operation (a typed document from test/generated, or a string) and returns status and body. */
  graphql<T, V extends Record<string, unknown>>(
    document: TypedDocumentNode<T, V>,
    variables?: V,
  ): Promise<GraphQLResponse<T>>;
  graphql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<T>>;
  /** POSTs a GraphQL operation with extra headers (an Authorization header, say). */
  graphqlAs<T = Record<string, unknown>>(
    headers: Record<string, string>,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<GraphQLResponse<T>>;
  metric(name: string, labels: Record<string, string>, headers?: Record<string, string>): Promise<number>;
  stop(): Promise<void>;
}

export interface GraphQLResponse<T> {
  status: number;
  body: { data?: T | null; errors?: GraphQLErrorBody[] };
}

export interface GraphQLErrorBody {
  message: string;
  path?: Array<string | number>;
  extensions?: { code?: string; reason?: string; field?: string; limit?: string; max?: number; value?: number };
}

export async function startTestApp(
  label: string,
  env: Record<string, string> = {},
  clock?: () => number,
  hooks?: AppHooks,
): Promise<TestApp> {
  const dbName = testDatabaseName(label);
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', MONGODB_URI: testMongoUri(), MONGODB_DB: dbName, ...env });
  const app = await startApp(config, shutdownLogger(label), clock, undefined, hooks);
  const graphqlUrl = `${app.url}/graphql`;
  return {
    ...app,
    async graphql(document: string | TypedDocumentNode<unknown, never>, variables?: Record<string, unknown>) {
      const query = typeof document === 'string' ? document : print(document);
      const response = await fetch(graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: (await response.json()) as GraphQLResponse<never>['body'] };
    },
    async graphqlAs(headers: Record<string, string>, query: string, variables?: Record<string, unknown>) {
      const response = await fetch(graphqlUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: (await response.json()) as GraphQLResponse<never>['body'] };
    },
    async metric(name, labels, headers: Record<string, string> = {}) {
      return (await readMetric(app.metricsUrl ?? app.url, name, { labels, headers })) ?? 0;
    },
    async stop() {
      const started = performance.now();
      await app.database.db.dropDatabase().catch(() => undefined);
      const ms = Math.round(performance.now() - started);
      if (ms > 2_000) process.stderr.write(`[${label}] stop: dropping the test database took ${ms} ms\n`);
      await app.close();
    },
  };
}

/**
 * Tests run silent, except for a slow step of the app's shutdown (app/shutdownStep): an `afterAll` that times out
 * then says which step of which app it was waiting for.
 */
function shutdownLogger(label: string): Logger {
  return pino(
    { level: 'warn', base: { app: label } },
    {
      write(line: string) {
        if (line.includes('"msg":"shutdown:')) process.stderr.write(line);
      },
    },
  );
}
