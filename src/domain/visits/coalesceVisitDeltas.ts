/**
 * Sums a visit's changes to the same counter (a visit's many pageviews in one window become one `$inc` each) and
 * drops those that sum to nothing (a bounce undone in the same window writes no field). A counter is its owner (a
 * page, or the site under one object of dimension values, compared by identity), its visit's start and its field;
 * the result keeps each counter's first change, in order, with the summed amount.
 *
 * Most visitors' changes in a window are a few dozen, and for them a scan of the counters seen so far costs less than
 * Maps: building two per visit was a third of a window's visit work in the live profile. Long lists (an import's
 * heavy visitor) take the Maps, whose cost does not grow with the square.
 */
import { VISIT_FIELDS } from './VisitDelta';
import type { VisitDelta, VisitField } from './VisitDelta';

/** Up to this many changes are summed by a scan. */
export const SCAN_LIMIT = 64;

export function coalesceVisitDeltas(deltas: readonly VisitDelta[]): VisitDelta[] {
  return deltas.length <= SCAN_LIMIT ? coalesceByScan(deltas) : coalesceByMaps(deltas);
}

export function coalesceByScan(deltas: readonly VisitDelta[]): VisitDelta[] {
  const firsts: VisitDelta[] = [];
  const owners: unknown[] = [];
  const amounts: number[] = [];
  next: for (const delta of deltas) {
    const owner = ownerOf(delta);
    for (let i = 0; i < firsts.length; i++) {
      const first = firsts[i] as VisitDelta;
      if (first.start === delta.start && first.field === delta.field && owners[i] === owner) {
        amounts[i] = (amounts[i] as number) + delta.amount;
        continue next;
      }
    }
    firsts.push(delta);
    owners.push(owner);
    amounts.push(delta.amount);
  }
  return withSums(firsts, amounts);
}

export function coalesceByMaps(deltas: readonly VisitDelta[]): VisitDelta[] {
  // By owner, then by start and field as one number: no key string is built per change.
  const byOwner = new Map<unknown, Map<number, number>>();
  const firsts: VisitDelta[] = [];
  const amounts: number[] = [];
  for (const delta of deltas) {
    const owner = ownerOf(delta);
    let slots = byOwner.get(owner);
    if (slots === undefined) byOwner.set(owner, (slots = new Map()));
    const key = delta.start * VISIT_FIELDS.length + FIELD_INDEX[delta.field];
    const at = slots.get(key);
    if (at === undefined) {
      slots.set(key, firsts.length);
      firsts.push(delta);
      amounts.push(delta.amount);
    } else {
      amounts[at] = (amounts[at] as number) + delta.amount;
    }
  }
  return withSums(firsts, amounts);
}

/** Each counter's first change with its sum, those summing to nothing left out. */
function withSums(firsts: readonly VisitDelta[], amounts: readonly number[]): VisitDelta[] {
  const summed: VisitDelta[] = [];
  for (let i = 0; i < firsts.length; i++) {
    const first = firsts[i] as VisitDelta;
    const amount = amounts[i] as number;
    if (amount !== 0) summed.push(amount === first.amount ? first : { ...first, amount });
  }
  return summed;
}

function ownerOf(delta: VisitDelta): unknown {
  return delta.page ?? delta.dimensions ?? SITE_WITHOUT_DIMENSIONS;
}

const SITE_WITHOUT_DIMENSIONS = {};
const FIELD_INDEX = Object.fromEntries(VISIT_FIELDS.map((field, index) => [field, index])) as Record<
  VisitField,
  number
>;
