/** Keys for tests: secrets and the keys-file JSON holding their hashes (TALLY_KEYS_JSON). */
import { createHash } from 'node:crypto';

export const SECRETS = {
  pipeline: 'tally_sk_test_pipeline_0123456789abcdef',
  dashboard: 'tally_sk_test_dashboard_0123456789abcdef',
  ops: 'tally_sk_test_ops_0123456789abcdef',
} as const;

export const SITE_KEY = 'pk_test_example_0123456789';
export const KEEP_QUERY_SITE_KEY = 'pk_test_keepquery_0123456789';
export const ALLOWED_ORIGIN = 'https://a.example';
export const OTHER_ALLOWED_ORIGIN = 'http://127.0.0.1:8123';

const sha256 = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export const KEYS_JSON = JSON.stringify({
  keys: [
    { name: 'pipeline', sha256: sha256(SECRETS.pipeline), scopes: ['ingest'], sites: ['a.example'] },
    { name: 'dashboard', sha256: sha256(SECRETS.dashboard), scopes: ['read'] },
    { name: 'ops', sha256: sha256(SECRETS.ops), scopes: ['admin', 'read', 'ingest'] },
  ],
  siteKeys: [
    { key: SITE_KEY, site: 'a.example', origins: [ALLOWED_ORIGIN, OTHER_ALLOWED_ORIGIN] },
    { key: KEEP_QUERY_SITE_KEY, site: 'q.example', origins: [ALLOWED_ORIGIN], keepQuery: true },
  ],
});

export function bearer(secret: string): Record<string, string> {
  return { authorization: `Bearer ${secret}` };
}
