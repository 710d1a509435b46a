/**
 * Turns a flush's hits into visit transitions (issue 29), exactly once, across instances:
 * 1. The hits with a visitor are grouped by session (visitSessionId) and put in time order.
 * 2. Each session's state is taken from this process's cache of the states it wrote last, or taken to be new; the
 *    transitions are computed (advanceVisit) and the new states written in bulk writes of WRITE_CHUNK sessions, each
 *    sent as soon as it is computed and each state conditional on the one it was computed from
 *    (VisitSessionStore.write). So a single instance pays about one extra round trip per flush.
 * 3. A session whose write lost (another instance advanced it, it expired, this process forgot it) is read back and
 *    computed again from what is stored, until none lose.
 * 4. A session whose stored outbox shows this flush's mark already wrote it (a re-sent window or a re-driven keyed
 *    flush, after a crash or a timeout) is not advanced again: its changes are recomputed from the state it had
 *    before (the same inputs give the same changes), or dropped when a later flush of the lane has followed, since
 *    that means every counter of this one was written.
 * The counter changes come back to the caller, which adds them to the batch written under the same mark: documents
 * that already absorbed the mark skip them, the others take them once.
 */
import { randomUUID } from 'node:crypto';
import type { Hit } from '../domain/Hit';
import { advanceVisit } from '../domain/visits/advanceVisit';
import type { VisitDelta } from '../domain/visits/VisitDelta';
import type { VisitHit, VisitState } from '../domain/visits/VisitState';
import type { FlushMark } from '../store/FlushMark';
import { visitSessionId, writeVersion } from '../store/visitSessions';
import type { SessionWrite, StoredSession, VisitSessionStore } from '../store/visitSessions';
import { TimeSlice } from '../time/TimeSlice';

export interface VisitTrackerOptions {
  readonly timeoutMs: number;
  readonly clock: () => number;
  /** Sessions whose state this process remembers (the oldest are forgotten first); default 200,000. */
  readonly maxCached?: number | undefined;
  /**
   * A remembered state is forgotten this long after this process last wrote it (default: the timeout): by then the
   * next hit starts a new visit, and the stored state is about to expire. So the cache holds the visitors active in
   * the last timeout, not every visitor seen.
   */
  readonly forgetAfterMs?: number | undefined;
}

/** One visitor's counter changes and the site whose documents take them (one object per visitor, not per change). */
export interface SiteVisitDeltas {
  readonly site: string;
  readonly deltas: readonly VisitDelta[];
}

interface Session {
  readonly site: string;
  readonly hits: VisitHit[];
}

interface Known {
  readonly version: string;
  readonly state: VisitState;
}

interface Remembered extends Known {
  /** When this process wrote it (the clock's ms): the cache is in this order. */
  readonly writtenAt: number;
}

/** Rounds of lost writes before a flush gives up (and is re-sent as a whole). */
const MAX_ROUNDS = 8;
/**
 * Sessions per bulk write. A window of a busy site holds tens of thousands: one command of them all could outlast the
 * database timeout (the counters are written in parts for the same reason), and in chunks the database stores one
 * while the next is computed.
 */
const WRITE_CHUNK = 2_000;

export class VisitTracker {
  private readonly cache = new Map<string, Remembered>();
  private readonly maxCached: number;
  /** Flushes without a mark still need versions nobody else writes. */
  private readonly unmarkedLane = randomUUID();
  private unmarkedSeq = 0;

  constructor(
    private readonly store: VisitSessionStore,
    private readonly options: VisitTrackerOptions,
  ) {
    this.maxCached = options.maxCached ?? 200_000;
  }

  async apply(hits: readonly Hit[], mark: FlushMark | undefined): Promise<SiteVisitDeltas[]> {
    const slice = new TimeSlice();
    const sessions = groupBySession(hits);
    const version = writeVersion(mark?.mark ?? { lane: this.unmarkedLane, seq: ++this.unmarkedSeq });
    const changes: SiteVisitDeltas[] = [];
    const written = new Map<string, Known>();
    // In `_id` order, so the chunks written one after another touch ranges of sessions in a stable order.
    let pending = [...sessions.keys()].sort();
    /**
     * Sessions read from the database this flush: after a lost write, and first of all those this process last wrote
     * in an earlier attempt of this flush (a retried window or re-driven request): their outbox, not the cache, says
     * what that attempt changed.
     */
    let stored = await this.readRetried(pending, mark);
    for (let round = 0; pending.length > 0; round++) {
      if (round >= MAX_ROUNDS) throw new Error(`visit sessions kept changing under ${pending.length} writes`);
      const writes: SessionWrite[] = [];
      let chunk: SessionWrite[] = [];
      // Each chunk is sent as soon as it is computed, so the database stores one while the next is computed.
      const sending: Array<Promise<Set<string>>> = [];
      const send = () => {
        sending.push(this.store.write(chunk, mark, version, this.options.clock(), slice));
        chunk = [];
      };
      const computed = new Map<string, SiteVisitDeltas>();
      for (const id of pending) {
        if (slice.due()) await slice.pause();
        const session = sessions.get(id) as Session;
        const found = stored.get(id);
        const replayed = found && mark ? absorbedBy(found, mark) : undefined;
        if (replayed !== undefined) {
          if (replayed.redo) {
            const { deltas: again } = advanceVisit(replayed.before, session.hits, this.options.timeoutMs);
            changes.push({ site: session.site, deltas: again });
          }
          continue;
        }
        const known = found
          ? { version: found.version, state: found.state }
          : round === 0
            ? this.cache.get(id)
            : undefined;
        const advanced = advanceVisit(known?.state, session.hits, this.options.timeoutMs);
        computed.set(id, { site: session.site, deltas: advanced.deltas });
        if (advanced.state === undefined) continue;
        const write = { id, expected: known?.version, state: advanced.state, before: known?.state };
        writes.push(write);
        chunk.push(write);
        if (chunk.length >= WRITE_CHUNK) send();
      }
      if (chunk.length > 0) send();
      // Every chunk settles before anything is decided: a failure never leaves a write in flight behind it.
      const results = await Promise.allSettled(sending);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      const lost = new Set<string>();
      for (const result of results) if (result.status === 'fulfilled') for (const id of result.value) lost.add(id);
      for (const write of writes) if (!lost.has(write.id)) written.set(write.id, { version, state: write.state });
      for (const [id, visitor] of computed) if (!lost.has(id)) changes.push(visitor);
      pending = [...lost];
      if (pending.length > 0) stored = await this.store.read(pending);
      for (const id of pending) if (!stored.has(id)) this.cache.delete(id);
    }
    const now = this.options.clock();
    for (const [id, known] of written) this.remember(id, { ...known, writtenAt: now });
    this.forget(now - (this.options.forgetAfterMs ?? this.options.timeoutMs));
    return changes;
  }

  /** Sessions remembered now (the metrics). */
  get cached(): number {
    return this.cache.size;
  }

  private async readRetried(ids: readonly string[], mark: FlushMark | undefined): Promise<Map<string, StoredSession>> {
    if (mark === undefined || mark.guards.length === 0) return new Map();
    const earlier = new Set(mark.guards.map(writeVersion));
    const retried = ids.filter((id) => {
      const known = this.cache.get(id);
      return known !== undefined && earlier.has(known.version);
    });
    return retried.length === 0 ? new Map() : this.store.read(retried);
  }

  private remember(id: string, known: Remembered): void {
    this.cache.delete(id);
    this.cache.set(id, known);
  }

  /** Drops the oldest entries: those written before `before`, and any beyond maxCached. */
  private forget(before: number): void {
    for (const [id, known] of this.cache) {
      if (known.writtenAt >= before && this.cache.size <= this.maxCached) return;
      this.cache.delete(id);
    }
  }
}

/**
 * Whether a stored session already took this flush: `redo` with the state before it when it took exactly this
 * attempt (its changes are made again from there), without when a later attempt of the lane followed.
 */
function absorbedBy(session: StoredSession, mark: FlushMark): { redo: boolean; before?: VisitState } | undefined {
  for (const { lane, seq } of mark.guards) {
    const entry = session.outbox.get(lane);
    if (entry === undefined || entry.seq < seq) continue;
    return entry.seq === seq ? { redo: true, before: entry.before } : { redo: false };
  }
  return undefined;
}

function groupBySession(hits: readonly Hit[]): Map<string, Session> {
  const sessions = new Map<string, Session>();
  // A visitor's hits of one flush share one session: the SHA-256 is computed once per session, not per hit, and the
  // session is found by site and the visitor's two numbers, without a key string per hit.
  const bySite = new Map<string, Map<number, Map<number, Session>>>();
  for (const hit of hits) {
    const { visitor } = hit;
    if (visitor === undefined) continue;
    let byHi = bySite.get(hit.site);
    if (byHi === undefined) bySite.set(hit.site, (byHi = new Map()));
    let byLo = byHi.get(visitor.hi);
    if (byLo === undefined) byHi.set(visitor.hi, (byLo = new Map()));
    let session = byLo.get(visitor.lo);
    if (session === undefined) {
      const id = visitSessionId(hit.site, visitor);
      session = sessions.get(id) ?? { site: hit.site, hits: [] };
      sessions.set(id, session);
      byLo.set(visitor.lo, session);
    }
    session.hits.push(hit);
  }
  // Stable: hits of one instant keep their arrival order.
  for (const session of sessions.values()) session.hits.sort((a, b) => a.at - b.at);
  return sessions;
}
