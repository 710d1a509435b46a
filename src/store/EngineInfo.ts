/** What the connected server is, and the capabilities we adapt to. */
export interface EngineInfo {
  readonly name: 'MongoDB' | 'FerretDB';
  readonly version: string;
  /** The MongoDB version the server claims to be compatible with (FerretDB reports one). */
  readonly compatibleWith: string;
  /** TTL indexes (FerretDB 1.x refuses them with code 238). */
  readonly supportsTtlIndexes: boolean;
  /**
   * FerretDB 1.x applies updates as read-modify-write without a lock: two connections updating one document
   * can lose increments, so we use one connection and one write in flight.
   */
  readonly requiresSingleWriter: boolean;
  /**
   * FerretDB 1.x (SQLite) pushes down to SQL only a filter that is exactly `{_id: <string>}` and evaluates any
   * other on every row, so writes address documents by `_id` alone there (see counterUpsert).
   */
  readonly indexesOnlyExactIdFilters: boolean;
  /**
   * FerretDB 1.24 never answers an `update` command that modifies 100 or more existing documents (measured: 99 took
   * about 1 s, 100 timed out), so bulk writes go out in commands of at most this many operations there.
   */
  readonly maxUpdatesPerCommand: number | undefined;
}

export function detectEngine(buildInfo: Readonly<Record<string, unknown>>): EngineInfo {
  const version = typeof buildInfo.version === 'string' ? buildInfo.version : 'unknown';
  if (typeof buildInfo.ferretdbVersion === 'string') {
    return {
      name: 'FerretDB',
      version: buildInfo.ferretdbVersion.replace(/^v/, ''),
      compatibleWith: version,
      supportsTtlIndexes: false,
      requiresSingleWriter: true,
      indexesOnlyExactIdFilters: true,
      maxUpdatesPerCommand: 90,
    };
  }
  return {
    name: 'MongoDB',
    version,
    compatibleWith: version,
    supportsTtlIndexes: true,
    requiresSingleWriter: false,
    indexesOnlyExactIdFilters: false,
    maxUpdatesPerCommand: undefined,
  };
}
