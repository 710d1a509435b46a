/**
 * The most a counter document's dimension fields can take, in BSON bytes, when it holds `maxValues` keys of every
 * dimension (fewer where a dimension has fewer values): `d` counters, and in site documents a saturated `dv` sketch
 * (2^8 registers) per value of each dimension in `visitorDimensions`. Keys are taken at their longest, 3 bytes per
 * character (UTF-8 up to U+FFFF, and dimensionKey's `%2E` escapes). Configuration checks DIMENSION_MAX_VALUES
 * against it, so no setting lets a document approach MongoDB's 16 MB limit.
 */
import { DIMENSIONS, MAX_DIMENSION_VALUE_LENGTH } from '../domain/dimensions/Dimension';
import type { Dimension } from '../domain/dimensions/Dimension';
import { VISITOR_PRECISION } from '../domain/visitors/VisitorPrecision';
import { dimensionValueSpace } from './dimensionValueSpace';

/** A BSON int32 element: type byte, name, NUL, 4 bytes. */
const INT32_OVERHEAD = 6;
/** A saturated minute-precision sketch as an embedded document: every register, names up to 3 digits. */
const SATURATED_SKETCH_BYTES = 5 + 2 ** VISITOR_PRECISION.minute * (INT32_OVERHEAD + 3);
/** Where configuration draws the line: the rest of a site document (minutes, `v`, markers) stays far below 4 MB. */
export const MAX_DIMENSION_FIELD_BYTES = 12 * 1024 * 1024;

export function dimensionDocumentBytes(maxValues: number, visitorDimensions: readonly Dimension[]): number {
  let bytes = 0;
  for (const dimension of DIMENSIONS) {
    // One more key per dimension: `(other)`.
    const keys = Math.min(maxValues, dimensionValueSpace(dimension)) + 1;
    const name = 3 * MAX_DIMENSION_VALUE_LENGTH[dimension];
    bytes += keys * (name + INT32_OVERHEAD);
    if (visitorDimensions.includes(dimension)) bytes += keys * (name + 2 + SATURATED_SKETCH_BYTES);
  }
  return bytes;
}

/** The largest DIMENSION_MAX_VALUES whose documents stay within MAX_DIMENSION_FIELD_BYTES. */
export function largestDimensionMaxValues(visitorDimensions: readonly Dimension[], ceiling: number): number {
  let low = 1;
  let high = ceiling;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (dimensionDocumentBytes(middle, visitorDimensions) <= MAX_DIMENSION_FIELD_BYTES) low = middle;
    else high = middle - 1;
  }
  return low;
}
