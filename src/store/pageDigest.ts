/**
 * The bytes of a page digest (pageDigests, issue 28): every page of one site-day or site-month with its hits and
 * its visitor sketch (compactSketch's coding), in one binary value. One value, not a field per page: FerretDB
 * 1.x builds and encodes a value per field it returns, and a digest of 200 pages read as 400 fields took 2.4–2.7× the
 * same bytes as one binary (docs/benchmarks/events.md). Layout: a version byte, then per page the varint length of
 * its UTF-8 path, the path, its hits as a varint, the varint length of its sketch and the sketch. Pure.
 */
import { readVarint, writeVarint } from '../domain/varint';

export interface PageDigestEntry {
  readonly page: string;
  readonly hits: number;
  /** The sketch, as encodeCompactSketch codes it (a view into the digest). */
  readonly sketch: Uint8Array;
}

const VERSION = 1;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

export function encodePageDigest(entries: Iterable<PageDigestEntry>): Uint8Array {
  const parts: number[] = [VERSION];
  const chunks: Uint8Array[] = [];
  let length = 0;
  const flush = (): void => {
    chunks.push(Uint8Array.from(parts));
    length += parts.length;
    parts.length = 0;
  };
  const push = (bytes: Uint8Array): void => {
    flush();
    chunks.push(bytes);
    length += bytes.length;
  };
  for (const { page, hits, sketch } of entries) {
    if (!Number.isSafeInteger(hits) || hits < 0) throw new RangeError(`page digest hits must be a count, got ${hits}`);
    const path = encoder.encode(page);
    writeVarint(parts, path.length);
    push(path);
    writeVarint(parts, hits);
    writeVarint(parts, sketch.length);
    push(sketch);
  }
  flush();
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

export function decodePageDigest(bytes: Uint8Array): PageDigestEntry[] {
  if (bytes[0] !== VERSION) throw new RangeError(`page digest must start with version ${VERSION}, got ${bytes[0]}`);
  const entries: PageDigestEntry[] = [];
  const at = { offset: 1 };
  while (at.offset < bytes.length) {
    const page = decoder.decode(take(bytes, at, readVarint(bytes, at, 'page digest')));
    const hits = readVarint(bytes, at, 'page digest');
    const sketch = take(bytes, at, readVarint(bytes, at, 'page digest'));
    entries.push({ page, hits, sketch });
  }
  return entries;
}

function take(bytes: Uint8Array, at: { offset: number }, length: number): Uint8Array {
  if (at.offset + length > bytes.length) {
    throw new RangeError(`page digest holds ${bytes.length - at.offset} byte(s) where ${length} were announced`);
  }
  const part = bytes.subarray(at.offset, at.offset + length);
  at.offset += length;
  return part;
}
