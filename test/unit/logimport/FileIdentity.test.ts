/**
 * An import run again (another process, maybe a newer version) must key its batches exactly as the first run
 * did, or a resumed import would count lines twice: the file identity and the batch key are pinned to literals
 * (the identity is the first 24 hex digits of a sha256 of the first 64 KiB, checked independently).
 */
import { FileIdentity } from '../../../src/logimport/FileIdentity';
import { batchIdempotencyKey } from '../../../src/logimport/HitBatch';

function identity(content: Buffer): string {
  const id = new FileIdentity();
  id.update(content);
  return id.finish();
}

describe('an import batch key, in every process', () => {
  it.each([
    [
      'a short log',
      Buffer.from('127.0.0.1 - - [10/Mar/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 5\n'),
      'da5cb7125e73629b268ff51c',
    ],
    ['a log over 64 KiB (only its first 64 KiB count)', Buffer.alloc(70_000, 'x'), '1f8745f0d2d1387ec1af2211'],
  ])('identifies %s as %s', (_label, content, id) => {
    expect(identity(content)).toBe(id);
  });

  it('keys a batch by version, file identity and line range', () => {
    expect(batchIdempotencyKey('da5cb7125e73629b268ff51c', 51, 100)).toBe(
      'tally-import:v1:da5cb7125e73629b268ff51c:51-100',
    );
  });
});
