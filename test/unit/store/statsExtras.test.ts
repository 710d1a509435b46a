import type { Dimension } from '../../../src/domain/dimensions/Dimension';
import { extraProjection } from '../../../src/store/statsExtras';
import type { DimensionKeys } from '../../../src/store/statsExtras';
import { mergeExtraFields } from '../../../src/query/mergeExtraFields';

describe('extraProjection', () => {
  it('projects nothing extra without extra fields', () => {
    expect(extraProjection(undefined)).toEqual({});
    expect(extraProjection({})).toEqual({});
  });

  it('projects `v` and its compacted `vz`, whole dimensions and single keys (`d` with its `dz`, `dv` with its `dvz`)', () => {
    expect(
      extraProjection({
        visitors: true,
        dimensions: new Map<Dimension, DimensionKeys>([
          ['source', 'all'],
          ['country', new Set(['DE', 'FR'])],
        ]),
        dimensionVisitors: new Map([['device', new Set(['mobile'])]]),
      }),
    ).toEqual({
      v: 1,
      vz: 1,
      'd.source': 1,
      'd.country.DE': 1,
      'd.country.FR': 1,
      // Compacted counters are one binary per dimension, read whole even for some keys.
      'dz.source': 1,
      'dz.country': 1,
      'dv.device.mobile': 1,
      'dvz.device.mobile': 1,
    });
  });
});

describe('mergeExtraFields', () => {
  it('is undefined when no read wants extra fields', () => {
    expect(mergeExtraFields([undefined, undefined])).toBeUndefined();
  });

  it('unions keys, and a whole dimension wins over its keys (no path collision in one projection)', () => {
    const merged = mergeExtraFields([
      { dimensions: new Map([['source', new Set(['Google'])]]) },
      { visitors: true, dimensions: new Map([['source', new Set(['Bing'])]]) },
      { dimensions: new Map([['country', new Set(['DE'])]]) },
      { dimensions: new Map<Dimension, DimensionKeys>([['country', 'all']]) },
      { dimensions: new Map([['country', new Set(['FR'])]]) },
    ]);
    expect(extraProjection(merged)).toEqual({
      v: 1,
      vz: 1,
      'd.source.Google': 1,
      'd.source.Bing': 1,
      'd.country': 1,
      'dz.source': 1,
      'dz.country': 1,
    });
  });

  it('does not change the fields it merges', () => {
    const keys = new Set(['Google']);
    mergeExtraFields([
      { dimensions: new Map([['source', keys]]) },
      { dimensions: new Map([['source', new Set(['x'])]]) },
    ]);
    expect([...keys]).toEqual(['Google']);
  });
});
