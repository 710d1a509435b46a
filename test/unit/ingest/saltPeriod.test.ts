import { saltPeriod } from '../../../src/ingest/saltPeriod';
import type { SaltRotation } from '../../../src/ingest/saltPeriod';

const ms = (iso: string): number => Date.parse(iso);

describe('saltPeriod', () => {
  it.each<[SaltRotation, string, string, number, number]>([
    ['day', '2026-03-10T12:30:00Z', 'day:2026-03-10', ms('2026-03-10T00:00:00Z'), ms('2026-03-11T00:00:00Z')],
    ['day', '2026-12-31T23:59:59.999Z', 'day:2026-12-31', ms('2026-12-31T00:00:00Z'), ms('2027-01-01T00:00:00Z')],
    ['day', '2028-02-29T00:00:00Z', 'day:2028-02-29', ms('2028-02-29T00:00:00Z'), ms('2028-03-01T00:00:00Z')],
    ['month', '2026-03-10T12:30:00Z', 'month:2026-03', ms('2026-03-01T00:00:00Z'), ms('2026-04-01T00:00:00Z')],
    ['month', '2026-12-31T23:59:59.999Z', 'month:2026-12', ms('2026-12-01T00:00:00Z'), ms('2027-01-01T00:00:00Z')],
    ['never', '2026-03-10T12:30:00Z', 'never', -Infinity, Infinity],
  ])('rotation %s at %s is %s', (rotation, at, id, from, until) => {
    expect(saltPeriod(rotation, ms(at))).toEqual({ id, from, until });
  });
});
