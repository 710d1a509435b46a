/** A sketch's precision p (2^p registers) must lie in MIN_PRECISION..MAX_PRECISION. */
import { MAX_PRECISION, MIN_PRECISION } from './registerLayout';

export function checkPrecision(precision: number): void {
  if (!Number.isInteger(precision) || precision < MIN_PRECISION || precision > MAX_PRECISION) {
    throw new RangeError(
      `visitor sketch precision must be an integer from ${MIN_PRECISION} to ${MAX_PRECISION}, got ${precision}`,
    );
  }
}
