/**
 * The union of the extra fields several reads of one source want, as one projection for one find: visitors if any
 * wants them, and per dimension either every key (if any wants the whole dimension) or the union of the keys.
 */
import type { Dimension } from '../domain/dimensions/Dimension';
import type { DimensionKeys, ExtraFields } from '../store/statsExtras';

export function mergeExtraFields(list: Iterable<ExtraFields | undefined>): ExtraFields | undefined {
  let any = false;
  let visitors = false;
  let visits = false;
  const dimensionVisits = new Map<Dimension, 'all' | Set<string>>();
  const dimensions = new Map<Dimension, 'all' | Set<string>>();
  const dimensionVisitors = new Map<Dimension, 'all' | Set<string>>();
  for (const extra of list) {
    if (extra === undefined) continue;
    any = true;
    visitors ||= extra.visitors === true;
    visits ||= extra.visits === true;
    addKeys(dimensionVisits, extra.dimensionVisits);
    addKeys(dimensions, extra.dimensions);
    addKeys(dimensionVisitors, extra.dimensionVisitors);
  }
  if (!any) return undefined;
  return {
    ...(visitors ? { visitors } : {}),
    ...(dimensions.size > 0 ? { dimensions } : {}),
    ...(dimensionVisitors.size > 0 ? { dimensionVisitors } : {}),
    ...(visits ? { visits } : {}),
    ...(dimensionVisits.size > 0 ? { dimensionVisits } : {}),
  };
}

function addKeys(
  union: Map<Dimension, 'all' | Set<string>>,
  wanted: ReadonlyMap<Dimension, DimensionKeys> | undefined,
): void {
  if (wanted === undefined) return;
  for (const [dimension, keys] of wanted) {
    const known = union.get(dimension);
    if (known === 'all') continue;
    if (keys === 'all') {
      union.set(dimension, 'all');
    } else if (known === undefined) {
      union.set(dimension, new Set(keys));
    } else {
      for (const key of keys) known.add(key);
    }
  }
}
