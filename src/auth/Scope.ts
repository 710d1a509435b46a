/** What an API key may do: record hits (`ingest`), read series (`read`), operate the service (`admin`). */
export type Scope = 'ingest' | 'read' | 'admin';

export const SCOPES: readonly Scope[] = ['ingest', 'read', 'admin'];
