/**
 * Writer lanes for exactly-once flushes (see src/store/FlushMark.ts): each lane is one sequential stream of
 * flushes with a random id, so the group committer holds one lane per flush it may have in flight. A lane that
 * fails is retired and replaced by a fresh one: no later flush can then carry its id, which is what lets a marker
 * `_a.<lane> >= seq` prove that exactly flush `seq` reached a document.
 */
import { randomBytes } from 'node:crypto';
import type { LaneSeq } from '../store/FlushMark';

interface Lane {
  readonly id: string;
  seq: number;
}

/** Remembered definitely-failed attempts (a bounded set: only recent ones matter, for prompt re-drives). */
const MAX_REMEMBERED_FAILURES = 10_000;

export function newLaneId(): string {
  // 48 random bits, base64url: no "." or "$", so it is a valid field name; 8 bytes of key in each document.
  return randomBytes(6).toString('base64url');
}

export class WriterLanes {
  private readonly free: Lane[] = [];
  private readonly failed = new Set<string>();

  constructor(
    count: number,
    private readonly newId: () => string = newLaneId,
  ) {
    for (let i = 0; i < count; i++) this.free.push({ id: newId(), seq: 0 });
  }

  /** Takes a free lane for one flush: the caller holds no more flushes in flight than lanes exist. */
  acquire(): LaneSeq {
    const lane = this.free.pop() ?? { id: this.newId(), seq: 0 };
    lane.seq += 1;
    this.busy.set(lane.id, lane);
    return { lane: lane.id, seq: lane.seq };
  }

  /** A lane used for one write only (a re-drive of one request). */
  oneShot(): LaneSeq {
    return { lane: this.newId(), seq: 1 };
  }

  /** Gives the lane back after its flush succeeded. */
  succeeded(attempt: LaneSeq): void {
    const lane = this.busy.get(attempt.lane);
    this.busy.delete(attempt.lane);
    if (lane) this.free.push(lane);
  }

  /**
   * Retires the lane of a failed flush. `definite` means no write of the attempt can still reach the database
   * (the server answered); after a network error or timeout it may, so only the lease allows a re-drive then.
   */
  failedWith(attempt: LaneSeq, definite: boolean): void {
    if (this.busy.delete(attempt.lane)) this.free.push({ id: this.newId(), seq: 0 });
    if (!definite) return;
    if (this.failed.size >= MAX_REMEMBERED_FAILURES) this.failed.clear();
    this.failed.add(attempt.lane);
  }

  /** Whether this process saw `attempt` fail definitely. */
  isDefinitelyFailed(attempt: LaneSeq): boolean {
    return this.failed.has(attempt.lane);
  }

  private readonly busy = new Map<string, Lane>();
}
