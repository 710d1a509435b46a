/** An archive file ("-": stdin) as the text stream readArchive takes: gunzipped, its read errors passed along. */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

export function readArchiveFile(file: string, stdin: Readable): Readable {
  const gunzip = createGunzip();
  const input = file === '-' ? stdin : createReadStream(file);
  input.once('error', (error: Error) => gunzip.destroy(error));
  return input.pipe(gunzip);
}
