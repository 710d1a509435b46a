/**
 * Where a counter document keeps its visitor sketch (issue 19): `v.<r>`, one `$bit … or` word per register. Every
 * path is a constant of this table, so a hit builds none; each level's register is the hash's low bits at that
 * level's precision (VISITOR_PRECISION), the same register update at every level.
 */
import { registerKey } from '../domain/visitors/registerKey';
import { VISITOR_PRECISION } from '../domain/visitors/VisitorPrecision';

export const VISITOR_FIELD = 'v';

const FINEST = Math.max(...Object.values(VISITOR_PRECISION));
const KEYS: readonly string[] = Array.from({ length: 2 ** FINEST }, (_, r) => registerKey(r));
const PATHS: readonly string[] = KEYS.map((key) => `${VISITOR_FIELD}.${key}`);

/** Register masks of each level: `hash.lo & mask` is the visitor's register there. */
export const PAGE_DAY_MASK = 2 ** VISITOR_PRECISION.pageDay - 1;
export const PAGE_MONTH_MASK = 2 ** VISITOR_PRECISION.pageMonth - 1;
export const SITE_DAY_MASK = 2 ** VISITOR_PRECISION.siteDay - 1;
export const SITE_MONTH_MASK = 2 ** VISITOR_PRECISION.siteMonth - 1;
/** Minute documents, and the per-value sketches of dimensions (`dv`). */
export const MINUTE_MASK = 2 ** VISITOR_PRECISION.minute - 1;

/** `v.<register>`; `register` is below 2^FINEST (a mask above made sure). */
export function visitorRegisterPath(register: number): string {
  return PATHS[register] as string;
}

/** registerKey(register), from the table (a flush names thousands of registers). */
export function registerName(register: number): string {
  return KEYS[register] ?? registerKey(register);
}
