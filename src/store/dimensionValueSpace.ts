/**
 * How many distinct values a dimension can take at most, where that is few: the device classes and `(unknown)`;
 * A–Z pairs (explicit ISO 3166-1 codes are only checked for their form) and `(unknown)`. Infinity elsewhere.
 */
import { DEVICE_CLASSES } from '../domain/dimensions/DeviceClass';
import type { Dimension } from '../domain/dimensions/Dimension';

const VALUE_SPACE: Partial<Record<Dimension, number>> = { device: DEVICE_CLASSES.length + 1, country: 26 * 26 + 1 };

export function dimensionValueSpace(dimension: Dimension): number {
  return VALUE_SPACE[dimension] ?? Infinity;
}
