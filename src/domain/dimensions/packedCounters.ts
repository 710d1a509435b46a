/**
 * One binary value for one dimension's counters of a closed period (`dz.<dimension>`, see store/compactPastPeriods).
 * Reads pay per field on every engine: the driver builds a string and a number per counter, and FerretDB 1.x
 * decodes each stored field it returns, about 1.3 µs a field here, so a 30-day breakdown of 1,000 referrer hosts
 * spent ~40 ms on 30,000 fields. Packed, the same counters are one value per day, and deflated they are about a
 * quarter of their size, which matters because FerretDB also pays per byte it returns (about 15 µs per KB).
 *
 * Layout: byte 0 is 1 (entries as they are) or 2 (the entries deflated, raw DEFLATE), whichever is smaller. The
 * entries are sorted by key; each is the key's UTF-8 length (LEB128), its bytes (the stored field name, dimensionKey's
 * escaped form), then the count (LEB128, up to 2^53 - 1).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { MAX_VARINT_BYTES, readVarintWithin, writeVarint } from '../varint';

const RAW = 1;
const DEFLATED = 2;

/** Packs counters (zeros are left out); throws a RangeError on a count that is not a non-negative safe integer. */
export function packCounters(counters: Iterable<readonly [string, number]>): Uint8Array {
  const entries = [...counters].filter(([, count]) => count !== 0);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const chunks: Buffer[] = [];
  let length = 0;
  for (const [key, count] of entries) {
    if (!Number.isSafeInteger(count) || count < 0) {
      throw new RangeError(`a packed counter must be a non-negative safe integer, got ${count} for ${key}`);
    }
    const name = Buffer.from(key, 'utf8');
    const head: number[] = [];
    writeVarint(head, name.length);
    const tail: number[] = [];
    writeVarint(tail, count);
    const chunk = Buffer.concat([Buffer.from(head), name, Buffer.from(tail)]);
    chunks.push(chunk);
    length += chunk.length;
  }
  const raw = Buffer.concat(chunks, length);
  const deflated = deflateRawSync(raw);
  const [layout, body] = deflated.length < raw.length ? [DEFLATED, deflated] : [RAW, raw];
  const packed = new Uint8Array(1 + body.length);
  packed[0] = layout;
  packed.set(body, 1);
  return packed;
}

/** Adds every counter `bytes` holds to `into`, by key. */
export function addPackedCounters(bytes: Uint8Array, into: Map<string, number>): void {
  forEachCounter(bytes, (entries, start, end, count) => {
    const key = entries.toString('utf8', start, end);
    into.set(key, (into.get(key) ?? 0) + count);
  });
}

/** The count of `key` in `bytes` (0 when absent), found without building a string per entry. */
export function packedCount(bytes: Uint8Array, key: string): number {
  const wanted = Buffer.from(key, 'utf8');
  let found = 0;
  forEachCounter(bytes, (entries, start, end, count) => {
    if (end - start === wanted.length && entries.compare(wanted, 0, wanted.length, start, end) === 0) found += count;
  });
  return found;
}

function forEachCounter(
  bytes: Uint8Array,
  visit: (entries: Buffer, keyStart: number, keyEnd: number, count: number) => void,
): void {
  const entries = unwrap(bytes);
  let at = 0;
  while (at < entries.length) {
    const [length, afterLength] = readNumber(entries, at);
    const keyEnd = afterLength + length;
    if (keyEnd > entries.length) {
      throw new RangeError(`packed counters: a key of ${length} bytes runs past the end (${entries.length} bytes)`);
    }
    const [count, next] = readNumber(entries, keyEnd);
    visit(entries, afterLength, keyEnd, count);
    at = next;
  }
}

function unwrap(bytes: Uint8Array): Buffer {
  if (bytes[0] !== RAW && bytes[0] !== DEFLATED) {
    throw new RangeError(
      `packed counters must start with layout 1 or 2, got ${bytes.length === 0 ? 'no byte' : bytes[0]}`,
    );
  }
  const body = Buffer.from(bytes.buffer, bytes.byteOffset + 1, bytes.byteLength - 1);
  if (bytes[0] === RAW) return body;
  try {
    return inflateRawSync(body);
  } catch (error) {
    throw new RangeError(`packed counters of layout 2 do not inflate: ${(error as Error).message}`);
  }
}

/** The number at `start` and the offset after it, with packed counters' own errors. */
function readNumber(bytes: Buffer, start: number): [number, number] {
  const at = { offset: start };
  const value = readVarintWithin(bytes, at, MAX_VARINT_BYTES);
  if (value === undefined) {
    throw new RangeError(
      `packed counters: a number at byte ${start} is truncated or longer than ${MAX_VARINT_BYTES} bytes`,
    );
  }
  if (!Number.isSafeInteger(value)) throw new RangeError(`packed counters: a number at byte ${start} exceeds 2^53 - 1`);
  return [value, at.offset];
}
