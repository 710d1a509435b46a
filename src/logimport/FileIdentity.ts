/**
 * A file's identity for idempotency keys: a hash of its first 64 KiB of (decompressed) content. Not its
 * path or size, so `access.log.1` and the `access.log.1.gz` it is rotated into are the same file, and a
 * copy imported from elsewhere is recognised. Access logs start with timestamps, so two different logs
 * practically never share their first 64 KiB; a file shorter than that which grows later is a new file.
 */
import { createHash } from 'node:crypto';

export const IDENTITY_PREFIX_BYTES = 64 * 1024;

export class FileIdentity {
  private readonly hash = createHash('sha256');
  private hashed = 0;
  private id: string | undefined;

  /** Feeds decompressed bytes in order; returns true once the identity is known. */
  update(chunk: Buffer): boolean {
    if (this.id !== undefined) return true;
    const take = Math.min(chunk.length, IDENTITY_PREFIX_BYTES - this.hashed);
    this.hash.update(take === chunk.length ? chunk : chunk.subarray(0, take));
    this.hashed += take;
    if (this.hashed >= IDENTITY_PREFIX_BYTES) this.finish();
    return this.id !== undefined;
  }

  /** The end of the content: whatever was hashed is the identity. */
  finish(): string {
    this.id ??= this.hash.digest('hex').slice(0, 24);
    return this.id;
  }

  get value(): string | undefined {
    return this.id;
  }
}
