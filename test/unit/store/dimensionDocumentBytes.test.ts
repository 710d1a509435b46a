/** The worst-case size of a document's dimension fields, which configuration holds DIMENSION_MAX_VALUES to. */
import {
  dimensionDocumentBytes,
  largestDimensionMaxValues,
  MAX_DIMENSION_FIELD_BYTES,
} from '../../../src/store/dimensionDocumentBytes';

describe('dimensionDocumentBytes', () => {
  it('stays within 12 MB at the defaults (1,000 values; device, browser and os visitors): about 7.1 MB', () => {
    const bytes = dimensionDocumentBytes(1000, ['device', 'browser', 'os']);
    expect(bytes).toBe(7_117_112);
    expect(bytes).toBeLessThanOrEqual(MAX_DIMENSION_FIELD_BYTES);
  });

  it('grows with the cap and with every dimension that keeps visitors, device and country least', () => {
    expect(dimensionDocumentBytes(100, [])).toBeLessThan(dimensionDocumentBytes(1000, []));
    expect(dimensionDocumentBytes(1000, ['device'])).toBeLessThan(dimensionDocumentBytes(1000, ['browser']));
    // Device has 6 values (and "(other)"), however high the cap.
    const device = (cap: number) => dimensionDocumentBytes(cap, ['device']) - dimensionDocumentBytes(cap, []);
    expect(device(10_000)).toBe(device(10));
  });

  it.each([
    [[], 6047],
    [['device', 'browser', 'os'], 1771],
    [['source', 'utmSource', 'utmMedium', 'utmCampaign', 'browser', 'os'], 698],
  ] as const)('allows at most the largest cap within the bound: %j → %d', (dimensions, largest) => {
    expect(largestDimensionMaxValues(dimensions, 100_000)).toBe(largest);
    expect(dimensionDocumentBytes(largest, dimensions)).toBeLessThanOrEqual(MAX_DIMENSION_FIELD_BYTES);
    expect(dimensionDocumentBytes(largest + 1, dimensions)).toBeGreaterThan(MAX_DIMENSION_FIELD_BYTES);
  });
});
