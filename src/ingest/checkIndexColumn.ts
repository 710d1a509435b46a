/** A columnar batch's per-hit index column (HitColumnsRequest), checked against its dictionary. */
import { InputRejectedError } from '../domain/InputRejectedError';
import { RejectReason } from '../domain/RejectReason';

/**
 * A per-hit index column, checked against its dictionary: one value per hit, each from -1 (none) to the
 * dictionary's last index. Absent: undefined (no hit has one).
 */
export function checkIndexColumn(
  dictionary: readonly unknown[] | null | undefined,
  column: readonly number[] | null | undefined,
  dictionaryName: string,
  columnName: string,
  rows: number,
  prefix: string,
): readonly number[] | undefined {
  if (column == null) return undefined;
  if (column.length !== rows) {
    throw new InputRejectedError(
      RejectReason.COLUMNS_MISMATCH,
      `${prefix}${columnName} must hold one value per hit (${rows}, the length of pageIndex), got ${column.length}`,
      `${prefix}${columnName}`,
    );
  }
  const size = dictionary?.length ?? 0;
  for (let row = 0; row < rows; row++) {
    const value = column[row] as number;
    if (Number.isInteger(value) && value >= -1 && value < size) continue;
    const expected =
      size === 0
        ? `must be -1 (${prefix}${dictionaryName} is empty)`
        : `must be -1 (none) or an index from 0 to ${size - 1}`;
    throw new InputRejectedError(
      RejectReason.INDEX_OUT_OF_RANGE,
      `${prefix}${columnName}[${row}] ${expected}, got ${value}`,
      `${prefix}${columnName}[${row}]`,
    );
  }
  return column;
}
