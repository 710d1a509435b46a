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
    };
  }
  return { name: 'MongoDB', version, compatibleWith: version, supportsTtlIndexes: true, requiresSingleWriter: false };
}
