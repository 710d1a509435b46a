/**
 * graphql-http's server audits (GraphQL-over-HTTP spec conformance) against the real server: every MUST
 * passes. SHOULD and MAY audits run too and are reported by name when they fail, not asserted.
 */
import { serverAudits } from 'graphql-http';
import { startTestApp } from '../support/startTestApp';
import type { TestApp } from '../support/startTestApp';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp('audits');
});

afterAll(async () => {
  await app.stop();
});

const audits = serverAudits({ url: () => `${app.url}/graphql` });

describe('graphql-http server audits', () => {
  it.each(audits.filter((audit) => audit.name.startsWith('MUST')).map((audit) => [audit.name, audit] as const))(
    '%s',
    async (_name, audit) => {
      const result = await audit.fn();
      expect({ status: result.status, reason: result.status === 'ok' ? undefined : result.reason }).toEqual({
        status: 'ok',
        reason: undefined,
      });
    },
  );
});
