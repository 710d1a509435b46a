/**
 * The period a beacon visitor's salt belongs to (VISITOR_SALT_ROTATION): a UTC day (`day:2026-03-10`, the default),
 * a UTC month (`month:2026-03`) or forever (`never`). One salt per period: a visitor is one visitor within it, and
 * counts again in the next. Pure: `now` is passed in.
 */
import { addMonths, DAY_MS, startOfDay, startOfMonth } from '../time/buckets';

export const SALT_ROTATIONS = ['day', 'month', 'never'] as const;
export type SaltRotation = (typeof SALT_ROTATIONS)[number];

export interface SaltPeriod {
  /** The salt document's `_id`. */
  readonly id: string;
  /** The period holds instants from `from` (inclusive) to `until` (exclusive). */
  readonly from: number;
  readonly until: number;
}

export function saltPeriod(rotation: SaltRotation, now: number): SaltPeriod {
  if (rotation === 'never') return { id: 'never', from: -Infinity, until: Infinity };
  if (rotation === 'month') {
    const from = startOfMonth(now);
    return { id: `month:${new Date(from).toISOString().slice(0, 7)}`, from, until: addMonths(from, 1) };
  }
  const from = startOfDay(now);
  return { id: `day:${new Date(from).toISOString().slice(0, 10)}`, from, until: from + DAY_MS };
}
