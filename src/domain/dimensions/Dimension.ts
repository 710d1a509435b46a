/**
 * The closed list of dimensions a hit is counted by (issue 20), each with the longest value it keeps. Every hit
 * has exactly one value per dimension (a marker when nothing is known), so a breakdown's values add up to its hits.
 */
export const DIMENSIONS = [
  'source',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'browser',
  'os',
  'device',
  'country',
] as const;

export type Dimension = (typeof DIMENSIONS)[number];

/** One value per dimension, normalised and truncated: what the counters are keyed by (through dimensionKey). */
export type DimensionValues = Readonly<Record<Dimension, string>>;

/**
 * Longest value kept, in code points; longer derived values are cut, longer explicit values are refused. 253 is
 * the longest DNS name; 100 is what GA4 keeps of a campaign field; parser names are far below 64.
 */
export const MAX_DIMENSION_VALUE_LENGTH: Readonly<Record<Dimension, number>> = {
  source: 253,
  utmSource: 100,
  utmMedium: 100,
  utmCampaign: 100,
  browser: 64,
  os: 64,
  device: 16,
  country: 2,
};

export function isDimension(name: string): name is Dimension {
  return (DIMENSIONS as readonly string[]).includes(name);
}
