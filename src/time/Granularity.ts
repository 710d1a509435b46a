/** The sizes of bucket a series can be read at. SECOND needs the per-second store (see README). */
export enum Granularity {
  SECOND = 'SECOND',
  MINUTE = 'MINUTE',
  HOUR = 'HOUR',
  DAY = 'DAY',
  WEEK = 'WEEK',
  MONTH = 'MONTH',
}
