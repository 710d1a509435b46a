/**
 * A log file (or stdin) as a stream of decompressed byte chunks. Gzip is recognised by its magic bytes, not
 * the file name, so `access.log.2.gz` and a gzipped stdin both work. Pulling one chunk at a time is the
 * backpressure: nothing is read while the consumer is busy, so memory stays bounded on a 10 GB file.
 */
import { createReadStream } from 'node:fs';
import { Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

export interface LogInput {
  /** What the summary and messages call it: the path, or `-` for stdin. */
  readonly name: string;
  readonly stream: () => Readable;
}

/**
 * Yields decompressed chunks; `onRawBytes` hears every raw (possibly compressed) byte count as it is read,
 * which is what progress against the file size measures.
 */
export async function* readLogChunks(input: LogInput, onRawBytes: (bytes: number) => void): AsyncGenerator<Buffer> {
  const raw = input.stream();
  try {
    const iterator = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const first = await iterator.next();
    if (first.done === true) return;
    async function* rest(): AsyncGenerator<Buffer> {
      onRawBytes(first.value.length);
      yield first.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) return;
        onRawBytes(next.value.length);
        yield next.value;
      }
    }
    if (first.value.length >= 2 && first.value[0] === 0x1f && first.value[1] === 0x8b) {
      const gunzip = createGunzip();
      // pipeline destroys both ends on an error, and the error surfaces from the loop below.
      pipeline(Readable.from(rest()), gunzip, () => undefined);
      for await (const chunk of gunzip) yield chunk as Buffer;
    } else {
      yield* rest();
    }
  } finally {
    // Stopping early (Ctrl-C, an aborted import) must release the file.
    if (input.name !== '-') raw.destroy();
  }
}

export function fileInput(path: string): LogInput {
  return { name: path, stream: () => createReadStream(path, { highWaterMark: 256 * 1024 }) };
}
