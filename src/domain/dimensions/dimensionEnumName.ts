/**
 * The public name of a dimension (GraphQL's `Dimension` enum, export's `dimension=`): `utmSource` ↔ `UTM_SOURCE`.
 * One mapping for every surface, so an error message names a dimension the way the client wrote it.
 */
import { DIMENSIONS } from './Dimension';
import type { Dimension } from './Dimension';

export function dimensionEnumName(dimension: Dimension): string {
  return dimension.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase();
}

const BY_ENUM_NAME: ReadonlyMap<string, Dimension> = new Map(DIMENSIONS.map((d) => [dimensionEnumName(d), d]));

/** The dimension an enum name stands for, or undefined. */
export function dimensionOfEnumName(name: string): Dimension | undefined {
  return BY_ENUM_NAME.get(name);
}
