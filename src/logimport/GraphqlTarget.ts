/**
 * Sends batches as `recordHitColumns(columns, idempotencyKey)` to a running tally (batchColumns: each site, page,
 * visitor, referrer, User-Agent and address once per batch), so an import follows the same validation, limits and
 * group commit as live traffic. The API key goes in `Authorization: Bearer`.
 */
import { batchColumns } from './batchColumns';
import type { HitBatch } from './HitBatch';
import { ImportTargetError } from './ImportTarget';
import type { ImportTarget } from './ImportTarget';

const MUTATION = `mutation TallyImport($columns: HitColumnsInput!, $idempotencyKey: String) {
  recordHitColumns(columns: $columns, idempotencyKey: $idempotencyKey) { accepted total }
}`;

const REQUEST_TIMEOUT_MS = 120_000;

/** Codes after which a later attempt with the same key can succeed. */
const RETRY_CODES = new Set(['SERVICE_UNAVAILABLE', 'IDEMPOTENCY_KEY_IN_PROGRESS', 'INTERNAL_SERVER_ERROR']);
const ABORT_CODES = new Set(['UNAUTHENTICATED', 'FORBIDDEN']);

interface GraphqlResponse {
  data?: { recordHitColumns?: { accepted: number; total: number } | null } | null;
  errors?: Array<{ message?: string; extensions?: { code?: string; reason?: string } }>;
}

export class GraphqlTarget implements ImportTarget {
  readonly description: string;
  /** The endpoint without credentials: fetch refuses them in a URL (and would echo them in its error). */
  private readonly url: string;

  constructor(
    url: string,
    private readonly apiKey: string | undefined,
  ) {
    const clean = new URL(url);
    clean.username = '';
    clean.password = '';
    this.url = clean.href;
    this.description = `GraphQL ${this.url}`;
  }

  async send(batch: HitBatch): Promise<number> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.apiKey !== undefined) headers.authorization = `Bearer ${this.apiKey}`;
    const body = JSON.stringify({
      operationName: 'TallyImport',
      query: MUTATION,
      variables: { idempotencyKey: batch.idempotencyKey, columns: batchColumns(batch) },
    });
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new ImportTargetError(
        'retry',
        `cannot reach ${this.url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      );
    }
    let parsed: GraphqlResponse | undefined;
    try {
      parsed = (await response.json()) as GraphqlResponse;
    } catch {
      parsed = undefined;
    }
    const error = parsed?.errors?.[0];
    if (error === undefined && parsed?.data?.recordHitColumns) return parsed.data.recordHitColumns.total;
    const code = error?.extensions?.code;
    const message = `${this.url} answered ${response.status}${code ? ` ${code}` : ''}: ${error?.message ?? 'no GraphQL response'}`;
    if (code === 'GRAPHQL_VALIDATION_FAILED' && /idempotencyKey/.test(error?.message ?? '')) {
      throw new ImportTargetError(
        'abort',
        `${this.url} does not accept idempotency keys (recordHitColumns(idempotencyKey:)), so an import could not be ` +
          `resumed exactly; upgrade that tally server`,
      );
    }
    if (code !== undefined && ABORT_CODES.has(code)) throw new ImportTargetError('abort', message);
    // Every batch would be too large as well: the server's INGEST_MAX_BATCH is below --batch-lines.
    if (error?.extensions?.reason === 'BATCH_TOO_LARGE') {
      throw new ImportTargetError('abort', `${message}; run again with a smaller --batch-lines`);
    }
    if (code !== undefined && RETRY_CODES.has(code)) throw new ImportTargetError('retry', message);
    if (response.status === 429 || response.status >= 500) throw new ImportTargetError('retry', message);
    if (code === undefined && parsed === undefined) throw new ImportTargetError('abort', message);
    if (code === 'GRAPHQL_VALIDATION_FAILED' || response.status === 404) throw new ImportTargetError('abort', message);
    throw new ImportTargetError('batch', message);
  }

  async close(): Promise<void> {}
}
