/** The ingest use-cases: validate at the boundary, note activity for preallocation, then group-commit. */
import type { Hit, HitInputFields, HitLimits } from './Hit';
import type { GroupCommitter } from './GroupCommitter';
import { parseHit, parseHitBatch } from './parseHit';
import type { PreallocationPlanner } from './PreallocationPlanner';

export interface HitIngestDeps {
  readonly committer: GroupCommitter;
  readonly limits: HitLimits;
  readonly clock: () => number;
  /** Absent when preallocation is switched off. */
  readonly planner?: PreallocationPlanner | undefined;
  /** The next hour's second-level minutes; absent when switched off. */
  readonly secondsPlanner?: PreallocationPlanner | undefined;
}

export class HitIngest {
  constructor(private readonly deps: HitIngestDeps) {}

  async recordHit(input: HitInputFields): Promise<Hit> {
    const now = this.deps.clock();
    const hit = parseHit(input, { now, limits: this.deps.limits });
    this.deps.planner?.noteHit(hit.site, hit.page, now);
    this.deps.secondsPlanner?.noteHit(hit.site, hit.page, now);
    await this.deps.committer.submit([hit]);
    return hit;
  }

  /** All or nothing: one invalid hit rejects the batch before anything is written. */
  async recordHits(inputs: readonly HitInputFields[]): Promise<{ accepted: number; total: number }> {
    const now = this.deps.clock();
    const hits = parseHitBatch(inputs, { now, limits: this.deps.limits });
    for (const planner of [this.deps.planner, this.deps.secondsPlanner]) {
      if (planner) for (const hit of hits) planner.noteHit(hit.site, hit.page, now);
    }
    await this.deps.committer.submit(hits, true);
    return { accepted: hits.length, total: hits.reduce((sum, hit) => sum + hit.count, 0) };
  }
}
