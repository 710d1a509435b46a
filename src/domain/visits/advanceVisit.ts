/**
 * The visit transitions of one visitor's hits on one site (issue 29): from the stored state (or none) and the hits
 * in time order, the new state and the exact counter changes (VisitDelta). Pure: the flush reads the state, calls
 * this, and writes both, so the same inputs always give the same changes (a re-sent window recomputes them).
 *
 * Rules:
 * - A pageview at least `timeoutMs` after the latest hit, or with no visit, starts a visit: `v`, `e`, `x` on its page,
 *   `v` on the site, a bounce (undone later), its pageviews.
 * - A pageview within the timeout and not before the latest hit continues the visit: its seconds since the latest
 *   hit, its pageviews, `v` on a page the visit had not viewed, the exit moved to its page, the bounce undone.
 * - Out of order: a pageview before the latest hit but within the timeout of it joins the visit as a pageview
 *   (bounce undone, `v` on a new page) without changing its duration, entry or exit; one more than the timeout
 *   before the latest hit is a one-pageview visit of its own, leaving the current visit as it is.
 * - A custom event within a visit extends it and undoes its bounce (interaction, as Plausible counts events); it is
 *   no pageview and moves neither entry nor exit. An event with no visit to join starts none.
 * Seconds are whole: the difference of the instants' whole seconds, so a visit's seconds add up to its duration.
 */
import { MAX_SEEN_PAGES, pageHash } from './VisitState';
import type { VisitHit, VisitState } from './VisitState';
import { coalesceVisitDeltas } from './coalesceVisitDeltas';
import type { VisitDelta, VisitField } from './VisitDelta';

export interface VisitAdvance {
  readonly state: VisitState | undefined;
  readonly deltas: VisitDelta[];
}

export function advanceVisit(
  previous: VisitState | undefined,
  hits: readonly VisitHit[],
  timeoutMs: number,
): VisitAdvance {
  const deltas: VisitDelta[] = [];
  let state = previous;
  const add: AddDelta = (page, visit, field, amount) => {
    if (amount === 0) return;
    deltas.push(
      page === undefined
        ? { page, start: visit.start, field, amount, dimensions: visit.dimensions }
        : { page, start: visit.start, field, amount },
    );
  };
  for (const hit of hits) {
    const active = state !== undefined && hit.at - state.last < timeoutMs;
    if (hit.event) {
      if (state === undefined || !active || hit.at < state.last) {
        if (state !== undefined && hit.at < state.last && state.last - hit.at < timeoutMs) state = interact(state);
        continue;
      }
      add(undefined, state, 's', seconds(hit.at) - seconds(state.last));
      add(state.entry, state, 's', seconds(hit.at) - seconds(state.last));
      state = interact({ ...state, last: hit.at });
      continue;
    }
    if (state === undefined || !active) {
      state = startVisit(hit, add);
      continue;
    }
    if (hit.at < state.last) {
      if (state.last - hit.at >= timeoutMs) {
        startVisit(hit, add);
        continue;
      }
      state = view(state, hit);
      continue;
    }
    const moved = hit.at - state.last;
    add(undefined, state, 's', seconds(hit.at) - seconds(state.last));
    add(state.entry, state, 's', seconds(hit.at) - seconds(state.last));
    if (state.exit !== hit.page) {
      add(state.exit, state, 'x', -1);
      add(hit.page, state, 'x', 1);
    }
    state = { ...view(state, hit), last: state.last + moved, exit: hit.page };
  }
  return { state, deltas: coalesceVisitDeltas(deltas) };

  function interact(current: VisitState): VisitState {
    if (!current.bounced) return current;
    add(undefined, current, 'b', -1);
    add(current.entry, current, 'b', -1);
    return { ...current, bounced: false };
  }

  function view(current: VisitState, hit: VisitHit): VisitState {
    add(undefined, current, 'p', hit.count);
    add(current.entry, current, 'p', hit.count);
    let seen = current.seen;
    const hash = pageHash(hit.page);
    if (!seen.includes(hash) && seen.length < MAX_SEEN_PAGES) {
      add(hit.page, current, 'v', 1);
      seen = appended(seen, hash);
    }
    return interact({ ...current, views: current.views + hit.count, seen });
  }
}

/**
 * `seen` and one more hash, in an array of exactly that length: a state stays in the process's cache for the whole
 * visit, and an array built by spreads keeps up to half its length again as spare capacity (a cached 64-page visit
 * held 1,519 bytes of heap with spreads, 1,135 without: bench/probes/visitStateHeap.ts).
 */
function appended(seen: readonly number[], hash: number): number[] {
  const next = new Array<number>(seen.length + 1);
  for (let i = 0; i < seen.length; i++) next[i] = seen[i] as number;
  next[seen.length] = hash;
  return next;
}

/** `visit`: the visit the change belongs to (its start period, and its dimension values for site changes). */
type AddDelta = (
  page: string | undefined,
  visit: Pick<VisitState, 'start' | 'dimensions'>,
  field: VisitField,
  amount: number,
) => void;

function startVisit(hit: VisitHit, add: AddDelta): VisitState {
  const bounced = hit.count === 1;
  const visit = { start: hit.at, dimensions: hit.dimensions };
  add(undefined, visit, 'v', 1);
  add(hit.page, visit, 'v', 1);
  add(hit.page, visit, 'e', 1);
  add(hit.page, visit, 'x', 1);
  add(undefined, visit, 'p', hit.count);
  add(hit.page, visit, 'p', hit.count);
  if (bounced) {
    add(undefined, visit, 'b', 1);
    add(hit.page, visit, 'b', 1);
  }
  return {
    start: hit.at,
    last: hit.at,
    entry: hit.page,
    exit: hit.page,
    views: hit.count,
    bounced,
    dimensions: hit.dimensions,
    seen: [pageHash(hit.page)],
  };
}

function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}
