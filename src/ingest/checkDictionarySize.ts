/**
 * A columnar batch's visitor and dimension dictionaries hold at most one entry per hit: more entries than hits can
 * only be unused ones, and each is validated (and some derived) before any is used, so this bounds that work by the
 * batch's size instead of by the body's.
 */
import { InputRejectedError } from '../domain/InputRejectedError';
import { RejectReason } from '../domain/RejectReason';

export function checkDictionarySize(
  dictionary: readonly unknown[] | null | undefined,
  name: string,
  rows: number,
  prefix: string,
): void {
  if (dictionary == null || dictionary.length <= rows) return;
  throw new InputRejectedError(
    RejectReason.COLUMNS_MISMATCH,
    `${prefix}${name} must hold at most one entry per hit (${rows}, the length of pageIndex), got ${dictionary.length}`,
    `${prefix}${name}`,
  );
}
