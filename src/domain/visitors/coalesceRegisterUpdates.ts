/**
 * One flush's register updates for one document, coalesced: the OR of every value per register. Writing the result
 * with `$bit … or` leaves the document exactly as writing each update would, however often it is retried.
 */
import type { RegisterUpdate } from './registerUpdate';

export function coalesceRegisterUpdates(updates: Iterable<RegisterUpdate>): Map<number, number> {
  const coalesced = new Map<number, number>();
  for (const { register, value } of updates) coalesced.set(register, (coalesced.get(register) ?? 0) | value);
  return coalesced;
}
