/**
 * Reads an archive (ArchiveFormat) line by line, checking as it goes: the header's format and version, each
 * collection in the header's order and closed by its count, and at the end the trailer's document count and the
 * SHA-256 of everything before it. Documents come out as the driver's BSON values (EJSON canonical, so `Int32`,
 * `Double`, `Long`, `Binary`, `Date`), ready to insert unchanged. Whatever is wrong throws ArchiveError where it is
 * found; a file cut short throws at its end (a restore checks a file whole first, see verifyArchive).
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { BSON } from 'mongodb';
import type { Document } from 'mongodb';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION, ArchiveError } from './ArchiveFormat';
import type { ArchiveCollection, ArchiveHeader, ArchiveTrailer } from './ArchiveFormat';

export interface ArchiveDocument {
  readonly collection: string;
  readonly document: Document;
  /** The length of its line: what batches are sized by. */
  readonly bytes: number;
}

export interface OpenArchive {
  readonly header: ArchiveHeader;
  /** Every document in order; ends after the trailer checked out, or throws ArchiveError. */
  readonly documents: AsyncIterable<ArchiveDocument>;
  /** The trailer, once `documents` ended. */
  trailer(): ArchiveTrailer;
}

const DOCUMENT_PREFIX = '{"d":';

export async function openArchive(
  source: Readable,
  options: {
    /** False: check the lines without building documents (verifyArchive); each comes out as an empty document. */
    readonly parse?: boolean;
  } = {},
): Promise<OpenArchive> {
  const parse = options.parse ?? true;
  const lines = createInterface({ input: source, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const hash = createHash('sha256');
  let lineNumber = 0;
  const next = async (): Promise<string | undefined> => {
    const result = await lines.next();
    if (result.done === true) return undefined;
    lineNumber += 1;
    return result.value;
  };
  const first = await next().catch((error: unknown) => {
    throw unreadable(error);
  });
  if (first === undefined) throw new ArchiveError('the archive is empty');
  const header = parseHeader(first);
  hash.update(`${first}\n`);
  let trailer: ArchiveTrailer | undefined;

  async function* documents(): AsyncGenerator<ArchiveDocument> {
    let total = 0;
    for (const expected of header.collections) {
      const start = await expectLine();
      if (controlLine(start).collection !== expected.name) {
        throw new ArchiveError(`line ${lineNumber}: expected the start of ${expected.name}, got ${clip(start)}`);
      }
      let count = 0;
      for (;;) {
        const line = await expectLine();
        if (line.startsWith(DOCUMENT_PREFIX)) {
          count += 1;
          total += 1;
          yield { collection: expected.name, document: parse ? parseDocument(line) : {}, bytes: line.length };
          continue;
        }
        const end = controlLine(line);
        if (end.end !== expected.name || end.count !== count) {
          throw new ArchiveError(
            `line ${lineNumber}: ${expected.name} should end after ${count} documents, got ${clip(line)}`,
          );
        }
        break;
      }
    }
    const digest = hash.digest('hex');
    const last = await next().catch((error: unknown) => {
      throw unreadable(error);
    });
    if (last === undefined) throw cutShort();
    const parsed = controlLine(last);
    if (parsed.trailer !== true || parsed.documents !== total || parsed.sha256 !== digest) {
      throw new ArchiveError(
        `the archive's trailer does not match its content (line ${lineNumber}: ${clip(last)}; ` +
          `read ${total} documents, SHA-256 ${digest}): the file was changed or is damaged`,
      );
    }
    if ((await next()) !== undefined) throw new ArchiveError(`line ${lineNumber}: text after the trailer`);
    trailer = parsed as unknown as ArchiveTrailer;
  }

  async function expectLine(): Promise<string> {
    let line: string | undefined;
    try {
      line = await next();
    } catch (error) {
      throw unreadable(error);
    }
    if (line === undefined) throw cutShort();
    hash.update(`${line}\n`);
    return line;
  }

  function parseDocument(line: string): Document {
    try {
      return (BSON.EJSON.parse(line, { relaxed: false }) as { d: Document }).d;
    } catch (error) {
      throw new ArchiveError(`line ${lineNumber}: not an Extended JSON document (${(error as Error).message})`);
    }
  }

  function controlLine(line: string): Record<string, unknown> {
    try {
      const value: unknown = JSON.parse(line);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // Reported below with the line.
    }
    throw new ArchiveError(`line ${lineNumber}: not a line of a tally archive: ${clip(line)}`);
  }

  function cutShort(): ArchiveError {
    return new ArchiveError(`the archive ends at line ${lineNumber} without its trailer: it was cut short`);
  }

  return {
    header,
    documents: documents(),
    trailer() {
      if (trailer === undefined) throw new Error('the archive was not read to its end');
      return trailer;
    },
  };
}

/** Reads a whole archive without keeping it: its trailer if everything checks out, else ArchiveError. */
export async function verifyArchive(source: Readable): Promise<{ header: ArchiveHeader; trailer: ArchiveTrailer }> {
  const archive = await openArchive(source, { parse: false });
  for await (const document of archive.documents) void document;
  return { header: archive.header, trailer: archive.trailer() };
}

function parseHeader(line: string): ArchiveHeader {
  let value: Partial<ArchiveHeader> | undefined;
  try {
    value = JSON.parse(line) as Partial<ArchiveHeader>;
  } catch {
    value = undefined;
  }
  if (value?.format !== ARCHIVE_FORMAT) {
    throw new ArchiveError(`not a tally archive: its first line should name the format "${ARCHIVE_FORMAT}"`);
  }
  if (value.version !== ARCHIVE_VERSION) {
    throw new ArchiveError(
      `a tally archive of version ${JSON.stringify(value.version)}; this tally reads version ${ARCHIVE_VERSION}`,
    );
  }
  const collections = value.collections;
  const listed = (c: Partial<ArchiveCollection> | undefined): boolean =>
    typeof c?.name === 'string' && Number.isSafeInteger(c.estimated);
  if (!Array.isArray(collections) || !collections.every(listed)) {
    throw new ArchiveError("the archive header's collections are not a list of names and estimated counts");
  }
  return value as ArchiveHeader;
}

/** A stream error (a gzip file cut inside a block: "unexpected end of file") as an archive error. */
function unreadable(error: unknown): ArchiveError {
  if (error instanceof ArchiveError) return error;
  return new ArchiveError(`the archive cannot be read: ${(error as Error).message}`);
}

function clip(line: string): string {
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
