/**
 * Ingest acknowledged from the durable local log (INGEST_ACK=log, issue 27). The promise:
 * - A hit is acknowledged once its record is on disk in the ingest log (IngestLog: group fsync). From then on it is
 *   counted exactly once, whether tally, the database or both are killed: it is in the log until the database has
 *   acknowledged the window that holds it.
 * - Durable hits are summed in memory per document. Every FLUSH_WINDOW_MS the open window is sealed: a seal record
 *   with the window's number `seq` is appended, and once it is durable the window's documents are written, each
 *   once, with one bulk write per collection guarded by this log's flush mark `(lane, seq)` (src/store/FlushMark.ts).
 *   A window is re-sent until the database acknowledges it, then the checkpoint (lane, seq, offset past the seal) is
 *   saved and the segments before it are deleted. One window is written at a time, so while the database is slow the
 *   open window grows instead of the number of writes.
 * - At start-up the records after the checkpoint are replayed: each sealed window again under its own `(lane, seq)`,
 *   so a document that absorbed it before the crash skips it and the others get it once; the unsealed tail becomes the
 *   open window. Windows are never merged on replay: a document may hold window `seq` but not `seq + 1`.
 * Reads see what is flushed: a hit shows in series at most about one window after its acknowledgement.
 */
import type { Hit } from '../domain/Hit';
import type { Logger } from '../logging/createLogger';
import type { CounterBatch } from '../store/CounterBatch';
import { flushMark } from '../store/FlushMark';
import type { FlushMark, LaneSeq } from '../store/FlushMark';
import type { LedgerClaim } from '../store/requestLedger';
import type { FlushObserver } from './GroupCommitter';
import { IngestLog } from './log/IngestLog';
import type { LoggedRecord } from './log/IngestLog';
import { decodeHits, decodeKeyedHits, encodeHits, encodeKeyedHits } from './log/hitRecord';
import { readCheckpoint, writeCheckpoint } from './log/LogCheckpoint';
import type { LogCheckpoint } from './log/LogCheckpoint';
import { newLaneId } from './WriterLanes';
import { QuietSpell } from './QuietSpell';

const HITS_RECORD = 1;
const SEAL_RECORD = 2;
const KEYED_RECORD = 3;

/** A new segment once the active one holds this much (deleted once its windows are flushed). */
const DEFAULT_SEGMENT_BYTES = 16 * 1024 * 1024;
/** The smallest part a refused one is halved down to. */
const MIN_PART_DOCUMENTS = 50;
/** Pauses between re-sends of a window the database refused; the last one repeats. */
const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [100, 500, 2_000, 5_000];
const DEFAULT_CLOSE_GRACE_MS = 0;
/** Shorter pauses between a window's parts are not worth a timer. */
const MIN_PAUSE_MS = 5;
/**
 * No hit logged for this long: no request is waiting behind a window's parts, so they go back to back. The window
 * sealed after a burst (by its quiet spell) is the one whose readers wait to see the burst counted.
 */
const DEFAULT_QUIET_MS = 1_000;

/** A request with an idempotency key, as logged: its ledger claim and its hits. */
interface KeyedHits {
  readonly claim: LedgerClaim;
  readonly hits: readonly Hit[];
}

type LogItem = { readonly hits: readonly Hit[] } | { readonly seal: number } | { readonly keyed: KeyedHits };

interface Window {
  readonly seq: number;
  readonly batch: CounterBatch;
  /** Keyed requests, added to `batch` once their keys are claimed for this window (claimKeys). */
  readonly keyed: readonly KeyedHits[];
  keysClaimed: boolean;
  /** The offset just past its seal record: the checkpoint once it is flushed. */
  readonly end: number;
}

export interface WindowCommitterOptions {
  /** The log's directory (created by the caller). */
  readonly dir: string;
  readonly windowMs: number;
  /**
   * A window that took no hit for this long is sealed before windowMs (0: never); sooner, down to a quarter of it,
   * where the traffic's own gaps are much shorter (QuietSpell). Under steady traffic it never fires, so busy
   * documents are still written once per window; when traffic pauses, the hits already logged are written now
   * instead of up to a window later.
   */
  readonly idleMs?: number | undefined;
  readonly newBatch: () => CounterBatch;
  /**
   * Run once per window before its counters are split and written (the visit transitions: openHitPipeline), under the
   * window's mark; re-run until it succeeds, so it must be idempotent under that mark.
   */
  readonly prepare?: ((batch: CounterBatch, mark: FlushMark) => Promise<void>) | undefined;
  /**
   * Claims keys in the idempotency ledger for the window `attempt` (RequestLedger.claim): resolves with the ids another
   * attempt holds, whose hits this window leaves out. Needed once keyed requests are logged (submitKeyed).
   */
  readonly claim?: ((claims: readonly LedgerClaim[], attempt: LaneSeq) => Promise<ReadonlySet<string>>) | undefined;
  /** One window's counter writes, guarded and recorded by its mark. */
  readonly write: (batch: CounterBatch, mark: FlushMark) => Promise<void>;
  /**
   * Prepares the next part's write (CounterStore.prebuild) while the current part's is with the database, so that
   * tally's work on a window's parts overlaps the database's instead of alternating with it.
   */
  readonly prebuild?: ((batch: CounterBatch, mark: FlushMark) => void) | undefined;
  /**
   * Runs a window's counter writes as one turn among the database's other writers (openHitPipeline's SerialQueue,
   * where updates are read-modify-write without a lock); absent: no turns.
   */
  readonly turn?: (<T>(task: () => Promise<T>) => Promise<T>) | undefined;
  readonly logger: Logger;
  readonly observer?: FlushObserver | undefined;
  /** A window is written in bulk writes of at most this many documents (INGEST_MAX_FLUSH_DOCUMENTS). */
  readonly maxWriteDocuments: number;
  readonly segmentBytes?: number | undefined;
  readonly retryDelaysMs?: readonly number[] | undefined;
  /**
   * How long close() keeps re-sending windows the database refuses (default 0: it tries once, and what is refused
   * stays in the log for the next start).
   */
  readonly closeGraceMs?: number | undefined;
  /**
   * Spreads a window's counter parts over this share of FLUSH_WINDOW_MS (0 or absent: back to back), pausing after a
   * part at most as long as it took. Written back to back, a busy window keeps the database (and tally, which
   * prepares the parts) saturated for seconds, and the requests answered meanwhile queue behind it: at 1,000 recordHit/s
   * on two cores shared with FerretDB, p99 went from about 0.2 s between windows to 1–2.5 s during them. Nobody waits on
   * a window's write: a drain, a close, a window that would end late and parts written while no hit arrives go back to
   * back.
   */
  readonly spreadShare?: number | undefined;
  /** No hit logged for this long: a window's parts go back to back (default 1,000 ms). */
  readonly quietMs?: number | undefined;
}

export class WindowCommitter {
  private log!: IngestLog<LogItem>;
  private checkpoint!: LogCheckpoint;
  private open: CounterBatch;
  private openKeyed: KeyedHits[] = [];
  /** Keys logged and not yet written: a retry in this process is answered from here (pendingKey). */
  private readonly pendingKeys = new Map<string, LedgerClaim>();
  private nextSeq = 1;
  private readonly sealed: Window[] = [];
  private timer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  /**
   * The quiet spell that seals a window early, from the gaps between requests: with an idleMs shorter than the window
   * only (a longer one could never seal early).
   */
  private readonly quietSpell: QuietSpell | undefined;
  /** When the last request brought hits, or the last hits joined the open window (performance.now()). */
  private lastArrival = 0;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private sealing: Promise<void> | undefined;
  private flushing: Promise<void> | undefined;
  private closing = false;
  /** While closing: when to stop re-sending and leave what is left in the log. */
  private closeBy = 0;
  /** Documents per bulk write now: INGEST_MAX_FLUSH_DOCUMENTS, halved after a refusal (writeWindow). */
  private partDocuments: number;
  /** drain() calls running: while any does, parts go back to back (spreadShare). */
  private draining = 0;
  /** Ends the pauses between parts now (a drain or close started). */
  private readonly wakers = new Set<() => void>();

  private constructor(private readonly options: WindowCommitterOptions) {
    this.open = options.newBatch();
    this.partDocuments = options.maxWriteDocuments;
    const idleMs = options.idleMs ?? 0;
    this.quietSpell = idleMs > 0 && idleMs < options.windowMs ? new QuietSpell(idleMs, options.windowMs) : undefined;
  }

  /** Opens the log in `options.dir`, replays what it holds past the checkpoint, and starts writing it. */
  static async open(options: WindowCommitterOptions): Promise<WindowCommitter> {
    const committer = new WindowCommitter(options);
    await committer.replay();
    return committer;
  }

  /** Resolves once the hits are durable in the log (SERVICE_UNAVAILABLE when the log cannot take them). */
  async submit(hits: readonly Hit[]): Promise<void> {
    if (hits.length === 0) return;
    this.requested();
    await this.log.append(HITS_RECORD, encodeHits(hits), { hits });
  }

  /**
   * Resolves once a keyed request's hits are durable in the log. The key is claimed in the ledger when its window is
   * written, by the window's attempt: if another attempt holds it by then (the same key sent to another instance at
   * the same time), the window leaves these hits out, so they count once either way.
   */
  async submitKeyed(claim: LedgerClaim, hits: readonly Hit[]): Promise<void> {
    if (this.options.claim === undefined) throw new Error('keyed requests need the ledger (WindowCommitter claim)');
    this.requested();
    await this.log.append(KEYED_RECORD, encodeKeyedHits(claim, hits), { keyed: { claim, hits } });
  }

  /** A keyed request logged by this process whose window is not written yet. */
  pendingKey(id: string): LedgerClaim | undefined {
    return this.pendingKeys.get(id);
  }

  /** Windows waiting for the database, the open one included if it holds hits (the metrics, tests). */
  get pendingWindows(): number {
    return this.sealed.length + (this.openHolds() ? 1 : 0);
  }

  /** Bytes the log holds on disk. */
  get logBytes(): number {
    return this.log.bytes;
  }

  /** Seals the open window now and resolves once every durable hit is written to the database. */
  async drain(): Promise<void> {
    this.stopTimers();
    this.draining += 1;
    this.wake();
    try {
      await this.drainNow();
    } finally {
      this.draining -= 1;
    }
  }

  private async drainNow(): Promise<void> {
    for (;;) {
      await this.log.settled();
      if (this.sealing) await this.sealing;
      else if (this.openHolds()) await this.seal();
      if (this.flushing) await this.flushing;
      if (this.closing && this.sealed.length > 0) throw new Error('the database did not take every window');
      if (!this.sealing && !this.flushing && !this.openHolds() && this.sealed.length === 0 && this.log.idle) return;
    }
  }

  /**
   * Stops: seals the open window, writes what is pending (re-sending refused parts for `closeGraceMs`, default once),
   * and closes the log. What the database does not take by then stays in the log and is written at the next start.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.closeBy = Date.now() + (this.options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS);
    this.stopTimers();
    clearTimeout(this.checkpointTimer);
    try {
      await this.drain();
    } catch (error) {
      this.options.logger.warn(
        { err: error, windows: this.pendingWindows },
        'ingest log: hits not yet written stay in the log; they are written at the next start',
      );
    }
    await this.log.close();
  }

  private async replay(): Promise<void> {
    const { dir, logger } = this.options;
    this.checkpoint = await readCheckpoint(dir, newLaneId);
    this.nextSeq = this.checkpoint.seq + 1;
    const { log, records } = await IngestLog.open<LogItem>(dir, {
      fromOffset: this.checkpoint.offset,
      segmentBytes: this.options.segmentBytes ?? DEFAULT_SEGMENT_BYTES,
      consume: (item, end) => this.consume(item, end),
      logger,
    });
    this.log = log;
    let hits = 0;
    for (const record of records) {
      const item = decodeRecord(record);
      if ('hits' in item) hits += item.hits.length;
      if ('keyed' in item) hits += item.keyed.hits.length;
      this.consume(item, record.end);
    }
    if (records.length > 0) {
      logger.info(
        { windows: this.sealed.length, hits, lane: this.checkpoint.lane, fromSeq: this.checkpoint.seq + 1 },
        'ingest log: replaying hits acknowledged before the last stop',
      );
    }
  }

  /** Log order is window order: hits join the open window, a seal closes it (called once each is durable). */
  private consume(item: LogItem, end: number): void {
    if ('hits' in item) {
      for (const hit of item.hits) this.open.add(hit);
      this.arrived();
      return;
    }
    if ('keyed' in item) {
      this.openKeyed.push(item.keyed);
      if (!this.pendingKeys.has(item.keyed.claim.id)) this.pendingKeys.set(item.keyed.claim.id, item.keyed.claim);
      this.arrived();
      return;
    }
    this.sealed.push({ seq: item.seal, batch: this.open, keyed: this.openKeyed, keysClaimed: false, end });
    this.nextSeq = item.seal + 1;
    this.open = this.options.newBatch();
    this.openKeyed = [];
    // Never rejects: a window is re-sent until written, and only close() gives up (drain() then sees it pending).
    this.flushing ??= this.flushSealed()
      .catch(() => undefined)
      .finally(() => {
        this.flushing = undefined;
        if (this.openHolds()) this.arm();
      });
  }

  /**
   * A request brought hits: the traffic's gaps are measured here, where requests arrive, not where their records
   * become durable, so a slow sync of the log never looks like a pause in the traffic.
   */
  private requested(): void {
    this.lastArrival = performance.now();
    this.quietSpell?.arrived(this.lastArrival);
  }

  /** Hits joined the open window (durable in the log, or replayed). */
  private arrived(): void {
    this.lastArrival = performance.now();
    this.arm();
  }

  private arm(): void {
    if (this.closing) return;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.sealIfFree();
    }, this.options.windowMs);
    if (this.quietSpell) this.idleTimer ??= setTimeout(() => this.idle(), this.quietNeeded(performance.now()));
  }

  /** One timer per quiet spell, not one per record: it looks at the last arrival and waits out the rest. */
  private idle(): void {
    this.idleTimer = undefined;
    const now = performance.now();
    const quiet = now - this.lastArrival;
    const needed = this.quietNeeded(now);
    if (quiet < needed) {
      this.idleTimer = setTimeout(() => this.idle(), needed - quiet);
      return;
    }
    this.sealIfFree();
  }

  /** The quiet spell that seals the open window early now (Infinity without idle seals). */
  private quietNeeded(now: number): number {
    return this.quietSpell?.needed(now) ?? Infinity;
  }

  private sealIfFree(): void {
    // One window in flight at a time: while one is written, the open one keeps gathering (re-armed after).
    if (this.flushing || this.sealing || !this.openHolds()) return;
    this.stopTimers();
    void this.seal().catch(() => this.arm());
  }

  private openHolds(): boolean {
    return this.open.hits > 0 || this.openKeyed.length > 0;
  }

  private stopTimers(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }

  private seal(): Promise<void> {
    this.sealing = this.appendSeal().finally(() => (this.sealing = undefined));
    return this.sealing;
  }

  /**
   * The seal is appended alone and ends its segment (IngestLog.appendClosing): on a full disk the log's reserve is
   * given up for it, so the window can be written and its segments deleted, freeing the space.
   */
  private async appendSeal(): Promise<void> {
    const seq = this.nextSeq;
    try {
      await this.log.appendClosing(SEAL_RECORD, Buffer.from(JSON.stringify({ seq })), { seal: seq });
    } catch (error) {
      this.options.logger.error({ err: error }, 'ingest log: a window could not be sealed; it stays open');
      throw error;
    }
  }

  private async flushSealed(): Promise<void> {
    while (this.sealed.length > 0) {
      const window = this.sealed[0] as Window;
      await this.writeWindow(window);
      this.sealed.shift();
      for (const { claim } of window.keyed) {
        if (this.pendingKeys.get(claim.id) === claim) this.pendingKeys.delete(claim.id);
      }
      this.checkpoint = { lane: this.checkpoint.lane, seq: window.seq, offset: window.end };
      await this.saveCheckpoint();
    }
  }

  /**
   * Saves the checkpoint and lets the log delete what it covers. A checkpoint that lags only means a longer replay,
   * under the same marks; but until one is saved the log keeps its segments, and a log that filled its disk takes no
   * hits (so no later window would save one): it is tried again a window later.
   */
  private async saveCheckpoint(): Promise<void> {
    clearTimeout(this.checkpointTimer);
    this.checkpointTimer = undefined;
    const checkpoint = this.checkpoint;
    try {
      await this.log.checkpointed(checkpoint.offset, () => writeCheckpoint(this.options.dir, checkpoint));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'ingest log: the checkpoint could not be saved; trying again');
      if (this.closing) return;
      this.checkpointTimer = setTimeout(() => {
        this.checkpointTimer = undefined;
        if (!this.flushing && this.checkpoint === checkpoint) void this.saveCheckpoint();
      }, this.options.windowMs);
    }
  }

  /**
   * In two lanes, minute documents and the others, each part after part in `_id` order. A part the database refuses
   * is re-sent under the same mark before the next one of its lane goes out, in halves (down to MIN_PART_DOCUMENTS) when it failed: a part too large to finish within
   * MONGODB_TIMEOUT_MS on a loaded server would otherwise time out on every try. Parts grow back after a window
   * written without a refusal.
   */
  private async writeWindow(window: Window): Promise<void> {
    const attempt = { lane: this.checkpoint.lane, seq: window.seq };
    const mark = flushMark(attempt);
    await this.untilDone(window, "a window's idempotency keys were not claimed", () => this.claimKeys(window, attempt));
    const { prepare } = this.options;
    if (prepare) await this.untilDone(window, "a window's visits were not written", () => prepare(window.batch, mark));
    // Minute documents in a lane of their own beside the rest: two collections' parts at a time, on their own
    // connections, let the database work on one while it waits on the other (25 % less time for two collections'
    // commands at once than one after the other, on FerretDB here).
    const lanes = window.batch
      .partition('seconds')
      .filter((batch) => batch.documents > 0)
      .map((batch) => batch.split(this.partDocuments));
    if (lanes.length === 0) lanes.push([window.batch]);
    const writeBy = performance.now() + (this.options.spreadShare ?? 0) * this.options.windowMs;
    const writeLanes = () => Promise.allSettled(lanes.map((queue) => this.writeLane(window, queue, mark, writeBy)));
    const { turn } = this.options;
    // Every lane settles before the window is decided: a failure never leaves a write in flight behind it.
    const results = await (turn ? turn(writeLanes) : writeLanes());
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    const refused = results.some((r) => r.status === 'fulfilled' && r.value);
    if (!refused) this.partDocuments = Math.min(this.options.maxWriteDocuments, this.partDocuments * 2);
  }

  /** Writes a lane's parts one after the other; resolves with whether the database refused any (and was re-sent). */
  private async writeLane(window: Window, queue: CounterBatch[], mark: FlushMark, writeBy: number): Promise<boolean> {
    let refused = false;
    for (let attempt = 0; queue.length > 0;) {
      const part = queue[0] as CounterBatch;
      const started = performance.now();
      const written = this.writePart(part, mark);
      const following = queue[1];
      if (following !== undefined) this.prebuildSoon(following, mark);
      if (await written) {
        queue.shift();
        attempt = 0;
        await this.pause(performance.now() - started, queue.length, writeBy);
        continue;
      }
      refused = true;
      if (this.closing && Date.now() >= this.closeBy) throw new Error(`window ${window.seq} was not written`);
      if (part.documents > MIN_PART_DOCUMENTS) {
        this.partDocuments = Math.max(MIN_PART_DOCUMENTS, Math.floor(part.documents / 2));
        queue.splice(0, 1, ...part.split(this.partDocuments));
      }
      const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
      const next = delays[Math.min(attempt++, delays.length - 1)] as number;
      const delay = this.closing ? Math.max(0, Math.min(next, this.closeBy - Date.now())) : next;
      this.options.logger.warn(
        { seq: window.seq, retryInMs: delay, partDocuments: this.partDocuments },
        'ingest log: window not written; re-sending',
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    return refused;
  }

  /**
   * After a part that took `partMs`, with `left` parts still to go in its lane: a pause of at most `partMs`, as long
   * as the lane still ends by `writeBy` if every part left takes as long as this one, and hits still arrive.
   */
  private async pause(partMs: number, left: number, writeBy: number): Promise<void> {
    if (left === 0 || this.closing || this.draining > 0) return;
    const now = performance.now();
    // Not the quiet spell that seals early (down to 250 ms): a part prepared on this thread can hold requests back
    // that long under load, and going back to back then would add to the load.
    if (now - this.lastArrival >= (this.options.quietMs ?? DEFAULT_QUIET_MS)) return;
    const pause = Math.min(partMs, (writeBy - now - left * partMs) / left);
    if (pause < MIN_PAUSE_MS) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, pause);
      this.wakers.add(done);
    });
  }

  private wake(): void {
    for (const done of [...this.wakers]) done();
  }

  /**
   * Claims the window's keys once, then adds the hits of those it holds to its batch. The first request of a key in
   * the window is the one claimed: a later one in the same window is a retry logged before the claim (a restart lost
   * pendingKeys). After a crash the replayed window claims again and finds its own entries (RequestLedger.claim
   * recognises its attempt), so the batch comes out the same.
   */
  private async claimKeys(window: Window, attempt: LaneSeq): Promise<void> {
    if (window.keysClaimed || window.keyed.length === 0) return;
    const first = new Map<string, KeyedHits>();
    for (const keyed of window.keyed) if (!first.has(keyed.claim.id)) first.set(keyed.claim.id, keyed);
    const ordered = [...first.values()].sort((a, b) =>
      a.claim.id < b.claim.id ? -1 : a.claim.id > b.claim.id ? 1 : 0,
    );
    const taken = await (this.options.claim as NonNullable<WindowCommitterOptions['claim']>)(
      ordered.map((k) => k.claim),
      attempt,
    );
    for (const keyed of ordered) if (!taken.has(keyed.claim.id)) for (const hit of keyed.hits) window.batch.add(hit);
    window.keysClaimed = true;
  }

  /** Runs a step of a window's write until it succeeds (re-sent after the retry delays), or closing gives up. */
  private async untilDone(window: Window, what: string, step: () => Promise<void>): Promise<void> {
    for (let attempt = 0; ;) {
      try {
        await step();
        return;
      } catch (error) {
        if (this.closing && Date.now() >= this.closeBy) throw error;
        const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
        const delay = delays[Math.min(attempt++, delays.length - 1)] as number;
        this.options.logger.warn({ err: error, seq: window.seq, retryInMs: delay }, `ingest log: ${what}; re-sending`);
        await new Promise((resolve) => setTimeout(resolve, this.closing ? Math.min(delay, 100) : delay));
      }
    }
  }

  /**
   * Once the current part's commands are on their way (after the I/O phase that sends them), prepares the next part's.
   * Best effort: a failure here leaves the write to build its operations itself, and to report what is wrong.
   */
  private prebuildSoon(part: CounterBatch, mark: FlushMark): void {
    const { prebuild } = this.options;
    if (prebuild === undefined) return;
    setImmediate(() => {
      try {
        prebuild(part, mark);
      } catch {
        // The part's own write builds again and fails with the error.
      }
    });
  }

  /** One bulk write per collection of one part; false (the error logged) when the database refused it. */
  private async writePart(part: CounterBatch, mark: FlushMark): Promise<boolean> {
    const { observer, logger } = this.options;
    observer?.started(part.documents, 0);
    const started = performance.now();
    try {
      await this.options.write(part, mark);
      observer?.settled((performance.now() - started) / 1000, true);
      return true;
    } catch (error) {
      observer?.settled((performance.now() - started) / 1000, false);
      logger.warn({ err: error, documents: part.documents }, 'ingest log: a part of a window was refused');
      return false;
    }
  }
}

function decodeRecord(record: LoggedRecord): LogItem {
  if (record.type === HITS_RECORD) return { hits: decodeHits(record.payload) };
  if (record.type === KEYED_RECORD) return { keyed: decodeKeyedHits(record.payload) };
  if (record.type === SEAL_RECORD)
    return { seal: (JSON.parse(record.payload.toString('utf8')) as { seq: number }).seq };
  throw new Error(`the ingest log holds a record of unknown type ${record.type} (ending at offset ${record.end})`);
}
