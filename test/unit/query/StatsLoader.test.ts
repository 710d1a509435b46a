import { statsReadKey } from '../../../src/query/StatsLoader';
import type { SeriesRequest } from '../../../src/query/Series';
import { Granularity } from '../../../src/time/Granularity';

const series: SeriesRequest = { site: 's', page: '/a', granularity: Granularity.DAY, from: 0, to: 86_400_000 };
const key = (request: SeriesRequest): string => statsReadKey({ kind: 'series', request });

describe('statsReadKey', () => {
  it('tells apart a series asked for with and without visitors, and with different sketch windows', () => {
    const keys = new Set([
      key(series),
      key({ ...series, visitors: {} }),
      key({ ...series, visitors: { minutesFrom: 60_000 } }),
      key({ ...series, visitors: { minutesFrom: 120_000 } }),
      key({ ...series, visitors: { minutesFrom: 60_000, pointsOnly: true } }),
    ]);
    expect(keys.size).toBe(5);
  });

  it('tells apart filters by dimension, value and whether per-value sketches are read', () => {
    const filter = { dimension: 'source' as const, value: 'Google', key: 'Google', sketched: false };
    const keys = new Set([
      key(series),
      key({ ...series, filter }),
      key({ ...series, filter: { ...filter, dimension: 'utmSource' } }),
      key({ ...series, filter: { ...filter, value: 'Bing', key: 'Bing' } }),
      key({ ...series, filter: { ...filter, sketched: true } }),
    ]);
    expect(keys.size).toBe(5);
  });

  it('tells a breakdown with visitors from one without, and from a series', () => {
    const breakdown = { site: 's', page: '', dimension: 'device' as const, from: 0, to: 86_400_000, visitors: false };
    const keys = new Set([
      statsReadKey({ kind: 'breakdown', request: breakdown }),
      statsReadKey({ kind: 'breakdown', request: { ...breakdown, visitors: true } }),
      statsReadKey({ kind: 'visitors', request: { site: 's', page: '', from: 0, to: 86_400_000 } }),
      key({ ...series, page: '' }),
    ]);
    expect(keys.size).toBe(4);
  });
});
