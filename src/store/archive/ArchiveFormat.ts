/**
 * The `tally dump` archive, version 1: gzip'd NDJSON, one JSON value per line, every document in MongoDB Extended
 * JSON v2 canonical form (the driver's EJSON), so each value keeps its BSON type: an int32 counter stays int32, a
 * packed sketch (`vz`, `dvz`, `dz`) stays the same binary of the same subtype, a date stays a date. Any engine
 * reads and writes it, and `zcat | jq` reads it.
 *
 *   {"format":"tally-dump","version":1,"createdAt":…,"database":…,"engine":…,"collections":[{"name":…,"estimated":n}]}
 *   {"collection":"stats.daily"}          then one {"d": <document>} per document, then
 *   {"end":"stats.daily","count":n}       for every collection the header names, in its order;
 *   {"trailer":true,"documents":n,"sha256":"<hex>"}
 *
 * The trailer's SHA-256 covers every byte before it (uncompressed, newlines included), and each collection ends with
 * its count, so a file cut short, with a line lost or changed, or of another version is refused before anything is
 * written (readArchive).
 */
export const ARCHIVE_FORMAT = 'tally-dump';
export const ARCHIVE_VERSION = 1;

export interface ArchiveCollection {
  readonly name: string;
  /** The source's document count when the dump began (a progress total; the end line has the exact count). */
  readonly estimated: number;
}

export interface ArchiveHeader {
  readonly format: typeof ARCHIVE_FORMAT;
  readonly version: typeof ARCHIVE_VERSION;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly database: string;
  /** "ferretdb 1.24.2-tally10", "mongodb 7.0.14": what the archive was read from. */
  readonly engine: string;
  readonly collections: readonly ArchiveCollection[];
}

export interface ArchiveTrailer {
  readonly trailer: true;
  readonly documents: number;
  readonly sha256: string;
}

/** An archive that cannot be read: not one, another version, cut short or changed. */
export class ArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveError';
  }
}
