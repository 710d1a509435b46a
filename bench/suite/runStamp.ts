/** The timestamp that names one run's results folder and databases: `20261122_101500` (UTC, to the second). */
export function runStamp(isoStart: string): string {
  return isoStart.replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '_');
}
