/**
 * Writes an archive (ArchiveFormat) line by line to a stream, hashing what it writes, and waits for the stream to
 * drain when it is full, so a dump never holds more than a stream buffer of documents in memory however slow the
 * file or the restore it feeds (`tally migrate`).
 */
import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { BSON } from 'mongodb';
import type { Document } from 'mongodb';
import { ARCHIVE_FORMAT, ARCHIVE_VERSION } from './ArchiveFormat';
import type { ArchiveHeader, ArchiveTrailer } from './ArchiveFormat';

export class ArchiveWriter {
  private readonly hash: Hash = createHash('sha256');
  private documents = 0;
  private current: { name: string; count: number } | undefined;
  private readonly pending: string[];

  constructor(
    private readonly sink: Writable,
    header: Omit<ArchiveHeader, 'format' | 'version'>,
  ) {
    this.pending = [...header.collections.map((collection) => collection.name)];
    const full: ArchiveHeader = { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, ...header };
    // One line, before any other: the stream's buffer takes it whatever its state.
    this.sink.write(this.hashed(JSON.stringify(full)));
  }

  async startCollection(name: string): Promise<void> {
    if (this.current !== undefined) throw new Error(`collection ${this.current.name} is not ended`);
    if (this.pending[0] !== name) throw new Error(`expected collection ${String(this.pending[0])}, got ${name}`);
    this.pending.shift();
    this.current = { name, count: 0 };
    await this.write(this.hashed(JSON.stringify({ collection: name })));
  }

  async document(document: Document): Promise<void> {
    if (this.current === undefined) throw new Error('a document outside a collection');
    this.current.count += 1;
    this.documents += 1;
    await this.write(this.hashed(`{"d":${BSON.EJSON.stringify(document, { relaxed: false })}}`));
  }

  async endCollection(): Promise<number> {
    const current = this.current;
    if (current === undefined) throw new Error('no collection to end');
    this.current = undefined;
    await this.write(this.hashed(JSON.stringify({ end: current.name, count: current.count })));
    return current.count;
  }

  /** Writes the trailer and ends the stream; resolves once the stream has flushed everything. */
  async finish(): Promise<ArchiveTrailer> {
    if (this.current !== undefined || this.pending.length > 0) {
      throw new Error(`collections not written: ${[this.current?.name, ...this.pending].filter(Boolean).join(', ')}`);
    }
    const trailer: ArchiveTrailer = { trailer: true, documents: this.documents, sha256: this.hash.digest('hex') };
    const finished = once(this.sink, 'finish');
    this.sink.end(`${JSON.stringify(trailer)}\n`);
    await finished;
    return trailer;
  }

  private hashed(json: string): string {
    const line = `${json}\n`;
    this.hash.update(line);
    return line;
  }

  private async write(line: string): Promise<void> {
    if (!this.sink.write(line)) await once(this.sink, 'drain');
  }
}
