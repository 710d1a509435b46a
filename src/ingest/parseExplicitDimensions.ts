/** A client's own dimension values (a mutation's `dimensions`), each validated by parseExplicitDimension. */
import { DIMENSIONS } from '../domain/dimensions/Dimension';
import type { Dimension } from '../domain/dimensions/Dimension';
import type { ExplicitDimensions } from '../domain/dimensions/deriveDimensions';
import { parseExplicitDimension } from '../domain/dimensions/parseExplicitDimension';

/** The values set, each normalised; a refused one is named `field(<dimension>)`. */
export function parseExplicitDimensions(
  values: ExplicitDimensions,
  field: (name: string) => string,
): Partial<Record<Dimension, string>> {
  const parsed: Partial<Record<Dimension, string>> = {};
  for (const dimension of DIMENSIONS) {
    const value = values[dimension];
    if (value != null) parsed[dimension] = parseExplicitDimension(dimension, value, () => field(dimension));
  }
  return parsed;
}
