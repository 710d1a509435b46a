/**
 * The durable local ingest log (issue 27): an append-only sequence of checksummed records (logFrame.ts) in segment
 * files named by the global offset of their first byte, so truncation deletes whole files (Kafka's layout).
 *
 * The promise, kept here: `append` resolves only after the record is on disk (O_DSYNC, or fdatasync), and records become
 * durable, are handed to `consume` and are answered in exactly the order they were appended. Group commit: every
 * record appended while a sync is running shares the next sync (PostgreSQL's WAL, SQLite's WAL mode), so a window of
 * concurrent requests costs one synchronous write, not one each.
 *
 * A failed write or sync (a full disk, an I/O error) rejects every record of its group with SERVICE_UNAVAILABLE and
 * cuts the segment back to where the group began, so the file never holds a record that was refused; if even that
 * fails, the log refuses every later append until the process restarts (open() then cuts the torn tail by its
 * checksum). One process owns a log directory at a time (a LOCK file naming its pid).
 */
import { constants } from 'node:fs';
import { open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceUnavailableError } from '../../errors/ServiceUnavailableError';
import type { Logger } from '../../logging/createLogger';
import { encodeFrame, readFrames } from './logFrame';
import { syncDirectory } from './syncDirectory';

/**
 * Segments are written through O_DSYNC where the platform has it (Linux, macOS): a write returns once its bytes are
 * on disk, so a group costs one system call and one trip through libuv's thread pool instead of a write and then an
 * fdatasync, each waiting for a turn of the event loop that a busy window's work makes long. Elsewhere (Windows) each
 * write is followed by datasync().
 */
const DSYNC: number = constants.O_DSYNC ?? 0;
const OPEN_ACTIVE = constants.O_RDWR | DSYNC;
const OPEN_NEW = constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | DSYNC;

/** A record read back at open: its type and payload, and the global offset just past it. */
export interface LoggedRecord {
  readonly type: number;
  readonly payload: Buffer;
  readonly end: number;
}

export interface IngestLogOptions<T> {
  /** Records ending at or before this offset were flushed: they are not returned, and their segments are deleted. */
  readonly fromOffset: number;
  /** A segment that has grown to this size is closed, and the next group starts a new one. */
  readonly segmentBytes: number;
  /** Called for each record once it is durable, in append order, before its caller is answered. */
  readonly consume: (item: T, end: number) => void;
  readonly logger: Logger;
}

interface Pending<T> {
  readonly frame: Buffer;
  readonly item: T;
  resolve(end: number): void;
  reject(error: unknown): void;
}

interface Segment {
  readonly start: number;
  size: number;
}

const SEGMENT_SUFFIX = '.log';
const LOCK_FILE = 'LOCK';
/**
 * Space kept aside while the disk has it: on a full disk it is given up so that the seal of the open window (a few
 * bytes) can still be written, and the window flushed, which frees the segments. Without it a log that filled its
 * disk could never seal, flush or shrink again.
 */
const RESERVE_FILE = 'reserve';
const RESERVE_BYTES = 64 * 1024;

export function segmentName(start: number): string {
  return `${String(start).padStart(20, '0')}${SEGMENT_SUFFIX}`;
}

export class IngestLog<T> {
  private readonly queue: Array<Pending<T>> = [];
  private syncing: Promise<void> | undefined;
  private broken: unknown;
  private closed = false;
  /**
   * The reserve was given up for a closing record and is not back yet: hits are refused until a written window frees
   * space, so the checkpoint that lets its segments go can still be written.
   */
  private starved = false;

  private constructor(
    private readonly dir: string,
    private readonly options: IngestLogOptions<T>,
    /** Closed segments, oldest first; the active one is `active`. */
    private readonly older: Segment[],
    private active: Segment,
    private handle: FileHandle,
  ) {}

  /**
   * Opens (or creates) the log in `dir`: takes the lock, reads every record after `fromOffset`, cuts a torn tail at
   * the last whole record (logging what was cut) and deletes segments that hold only flushed records.
   */
  static async open<T>(
    dir: string,
    options: IngestLogOptions<T>,
  ): Promise<{ log: IngestLog<T>; records: LoggedRecord[] }> {
    await takeLock(dir);
    const starts = (await readdir(dir))
      .filter((name) => name.endsWith(SEGMENT_SUFFIX))
      .map((name) => Number(name.slice(0, -SEGMENT_SUFFIX.length)))
      .filter((start) => Number.isSafeInteger(start))
      .sort((a, b) => a - b);
    const records: LoggedRecord[] = [];
    const kept: Segment[] = [];
    let end = options.fromOffset;
    for (let i = 0; i < starts.length; i++) {
      const start = starts[i] as number;
      const path = join(dir, segmentName(start));
      const bytes = await readFile(path);
      const read = readFrames(bytes);
      if (kept.length > 0 ? start !== end : start > end) {
        // A hole: records between the last flushed one and this segment are gone. Nothing can be replayed safely.
        throw new Error(`the ingest log ${dir} lacks the records from offset ${end} to ${start}; see docs/design.md`);
      }
      if (read.tornBytes > 0 && i < starts.length - 1) {
        // Only the last segment takes appends, so only it can be torn: damage before later segments is the disk's,
        // and cutting there would drop acknowledged hits. A person decides.
        throw new Error(
          `the ingest log segment ${path} is damaged at offset ${start + read.validEnd}, before later segments; ` +
            'move the log directory aside to start without it (its hits are then not counted)',
        );
      }
      if (read.tornBytes > 0) {
        options.logger.error(
          { segment: path, at: start + read.validEnd, tornBytes: read.tornBytes },
          'ingest log: a torn record was found at the end of the log; it is cut at the last whole record',
        );
        const handle = await open(path, 'r+');
        await handle.truncate(read.validEnd);
        await handle.sync();
        await handle.close();
      }
      const segmentEnd = start + read.validEnd;
      if (segmentEnd <= options.fromOffset && i < starts.length - 1) {
        await rm(path, { force: true });
        continue;
      }
      for (const frame of read.frames) {
        if (start + frame.end > options.fromOffset) {
          records.push({ type: frame.type, payload: Buffer.from(frame.payload), end: start + frame.end });
        }
      }
      kept.push({ start, size: read.validEnd });
      end = segmentEnd;
    }
    let active = kept.pop();
    if (!active) {
      active = { start: end, size: 0 };
      await writeFile(join(dir, segmentName(active.start)), '');
      await syncDirectory(dir);
    }
    const handle = await open(join(dir, segmentName(active.start)), OPEN_ACTIVE);
    const log = new IngestLog(dir, options, kept, active, handle);
    await log.keepReserve();
    return { log, records };
  }

  /** The offset just past the last record appended (durable or not). */
  get end(): number {
    let end = this.active.start + this.active.size;
    for (const pending of this.queue) end += pending.frame.length;
    return end;
  }

  /** Bytes the log's segments hold on disk. */
  get bytes(): number {
    return this.older.reduce((sum, s) => sum + s.size, this.active.size);
  }

  /** Appends a record; resolves with the offset just past it once it is on disk. */
  append(type: number, payload: Buffer, item: T): Promise<number> {
    if (this.closed) return Promise.reject(new ServiceUnavailableError('tally is stopping; retry later', 'closed'));
    if (this.broken !== undefined) return Promise.reject(unwritable(this.broken));
    if (this.starved) return Promise.reject(unwritable({ code: 'ENOSPC' }));
    let frame: Buffer;
    try {
      frame = encodeFrame(type, payload);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<number>((resolve, reject) => {
      this.queue.push({ frame, item, resolve, reject });
      this.startSyncing();
    });
  }

  /**
   * Appends the record that closes a window, alone, and starts a new segment after it, so that the window's segments
   * hold nothing past it and are deleted whole once it is written (dropBefore). Groups already being written go
   * first; appends made while it is written wait for it. On a full disk the reserve is given up for it: without it no
   * window could be written and no space freed, and with the record written alone no concurrent hit can take that
   * space first. Resolves with the offset just past it.
   */
  async appendClosing(type: number, payload: Buffer, item: T): Promise<number> {
    if (this.closed) throw new ServiceUnavailableError('tally is stopping; retry later', 'closed');
    if (this.broken !== undefined) throw unwritable(this.broken);
    const frame = encodeFrame(type, payload);
    let end = 0;
    await this.exclusive(async () => {
      const begin = this.active.size;
      try {
        await this.writeDurably(frame, begin);
      } catch (error) {
        if (!(await this.releaseReserve())) throw unwritable(error);
        await this.writeDurably(frame, begin);
      }
      this.active.size += frame.length;
      end = this.active.start + this.active.size;
      this.options.consume(item, end);
      await this.roll();
    });
    return end;
  }

  /** Writes `bytes` at `position` of the active segment and syncs it; on failure cuts the segment back. */
  private async writeDurably(bytes: Buffer, position: number): Promise<void> {
    try {
      await writeAll(this.handle, bytes, position);
      if (DSYNC === 0) await this.handle.datasync();
    } catch (error) {
      try {
        await this.handle.truncate(position);
      } catch {
        this.broken = error;
      }
      throw error;
    }
  }

  private startSyncing(): void {
    if (this.syncing) return;
    this.syncing = this.syncGroups().finally(() => {
      this.syncing = undefined;
      // An append answered by the last group may have queued another after the loop looked for one.
      if (this.queue.length > 0) this.startSyncing();
    });
  }

  /** Whether every record appended is durable (or refused). */
  get idle(): boolean {
    return this.syncing === undefined && this.queue.length === 0;
  }

  /** Resolves once every record appended so far is durable or refused. */
  async settled(): Promise<void> {
    while (this.syncing) await this.syncing;
  }

  /**
   * Deletes the segments that hold only records ending at or before `offset`. When that is every record of the
   * active segment too, it is closed and deleted at once (a new, empty one takes the appends): the log then holds
   * about one window, whatever FLUSH_WINDOW_MS and the segment size, and a disk the log filled gets its space back.
   */
  async dropBefore(offset: number): Promise<void> {
    await this.dropOlder(offset);
    if (this.active.size > 0 && this.active.start + this.active.size <= offset && !this.closed) {
      await this.exclusive(async () => {
        // Appended meanwhile: the segment still holds records to replay. Empty: a closing append rolled it already.
        if (this.active.size === 0 || this.active.start + this.active.size > offset) return;
        await this.roll();
      });
      await this.dropOlder(offset);
    }
    await this.keepReserve();
  }

  /**
   * Saves the checkpoint that lets the records up to `offset` go (`save`, which writes a file in the log's directory),
   * then deletes their segments. On a full disk the reserve is given up for it, as for a closing record: hits appended
   * after a seal can fill the disk before its window is written, and without the checkpoint no segment could be
   * deleted, no space freed and no hit taken again.
   */
  async checkpointed(offset: number, save: () => Promise<void>): Promise<void> {
    try {
      await save();
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOSPC') throw error;
      // With appends held back, so that no group takes the freed space first.
      await this.exclusive(async () => {
        if (!(await this.releaseReserve())) throw error;
        await save();
      });
    }
    await this.dropBefore(offset);
  }

  /** Deletes the closed segments whose records all end at or before `offset`. */
  private async dropOlder(offset: number): Promise<void> {
    let removed = false;
    while (this.older.length > 0) {
      const next = this.older[1] ?? this.active;
      if (next.start > offset) break;
      const segment = this.older.shift() as Segment;
      await rm(join(this.dir, segmentName(segment.start)), { force: true });
      removed = true;
    }
    if (removed) await syncDirectory(this.dir);
  }

  /** Waits for the appends in progress, then closes the file and releases the lock. */
  async close(): Promise<void> {
    this.closed = true;
    await this.settled();
    await this.handle.close();
    await rm(join(this.dir, LOCK_FILE), { force: true });
  }

  /** Runs `task` with no group being written, and holds appends back until it ends. */
  private async exclusive(task: () => Promise<void>): Promise<void> {
    while (this.syncing) await this.syncing;
    const running = task();
    this.syncing = running.finally(() => {
      this.syncing = undefined;
      if (this.queue.length > 0) this.startSyncing();
    });
    await this.syncing;
  }

  /** Gives up the reserved space (after a full disk refused a write); true when there was any to give. */
  private async releaseReserve(): Promise<boolean> {
    try {
      await rm(join(this.dir, RESERVE_FILE));
      this.starved = true;
      return true;
    } catch {
      return false;
    }
  }

  /** Sets the reserve aside again where the disk has room (best effort: a full disk simply has none). */
  private async keepReserve(): Promise<void> {
    try {
      await writeFile(join(this.dir, RESERVE_FILE), Buffer.alloc(RESERVE_BYTES), { flag: 'wx' });
      this.starved = false;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'EEXIST') this.starved = false;
      else await rm(join(this.dir, RESERVE_FILE), { force: true }).catch(() => undefined);
    }
  }

  private async syncGroups(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue.splice(0);
      if (this.active.size >= this.options.segmentBytes) {
        try {
          await this.roll();
        } catch (error) {
          this.fail(group, error);
          continue;
        }
      }
      const begin = this.active.size;
      const frames = group.map((p) => p.frame);
      const total = frames.reduce((sum, f) => sum + f.length, 0);
      try {
        await this.writeDurably(frames.length === 1 ? (frames[0] as Buffer) : Buffer.concat(frames, total), begin);
      } catch (error) {
        this.fail(group, error);
        continue;
      }
      this.active.size += total;
      let end = this.active.start + begin;
      const ends: number[] = [];
      for (const pending of group) {
        end += pending.frame.length;
        ends.push(end);
        this.options.consume(pending.item, end);
      }
      group.forEach((pending, i) => pending.resolve(ends[i] as number));
    }
  }

  private fail(group: ReadonlyArray<Pending<T>>, error: unknown): void {
    this.options.logger.error({ err: error, records: group.length }, 'ingest log: append failed; the hits are refused');
    const refused = unwritable(error);
    for (const pending of group) pending.reject(refused);
  }

  private async roll(): Promise<void> {
    const start = this.active.start + this.active.size;
    const handle = await open(join(this.dir, segmentName(start)), OPEN_NEW, 0o666);
    await syncDirectory(this.dir);
    await this.handle.close();
    this.older.push(this.active);
    this.active = { start, size: 0 };
    this.handle = handle;
  }
}

/** Writes every byte: a nearly full disk takes part of a write, and only the next one says why it stops (ENOSPC). */
async function writeAll(handle: FileHandle, bytes: Buffer, position: number): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    if (bytesWritten === 0) throw Object.assign(new Error('the ingest log took no bytes'), { code: 'ENOSPC' });
    done += bytesWritten;
  }
}

function unwritable(error: unknown): ServiceUnavailableError {
  const code = (error as { code?: unknown } | undefined)?.code;
  const why = code === 'ENOSPC' ? 'the disk is full' : 'it could not be written';
  return new ServiceUnavailableError(`the ingest log refused the hits: ${why}; retry later`, 'log_write');
}

/** One process per log directory: a LOCK file with the owner's pid; a dead owner's lock is taken over. */
async function takeLock(dir: string): Promise<void> {
  const path = join(dir, LOCK_FILE);
  try {
    await writeFile(path, String(process.pid), { flag: 'wx' });
    return;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  }
  const owner = Number((await readFile(path, 'utf8')).trim());
  if (Number.isSafeInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
    throw new Error(
      `the ingest log ${dir} is in use by process ${owner}; give each tally process its own INGEST_LOG_DIR`,
    );
  }
  await writeFile(path, String(process.pid));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
