import { spanPieces } from '../../../src/query/spanPieces';
import type { HitHorizon } from '../../../src/query/spanPieces';

const ms = (iso: string): number => Date.parse(iso);
const SKEW = 300_000;
/** `M 2026-11` (a month), `D 2026-10-28` (a day). */
function labels(from: string, to: string, now: string | undefined): string[] | undefined {
  const horizon: HitHorizon | undefined = now === undefined ? undefined : { now: ms(now), maxClockSkewMs: SKEW };
  return spanPieces(ms(from), ms(to), horizon)?.map(({ level, start }) =>
    level === 'month'
      ? `M ${new Date(start).toISOString().slice(0, 7)}`
      : `D ${new Date(start).toISOString().slice(0, 10)}`,
  );
}

const days = (first: number, last: number, month = '2026-10'): string[] =>
  Array.from({ length: last - first + 1 }, (_, i) => `D ${month}-${String(first + i).padStart(2, '0')}`);

describe('spanPieces', () => {
  it.each<[string, string, string, string | undefined, string[] | undefined]>([
    [
      'the last 30 days through today read this month whole',
      '2026-10-29T00:00:00Z',
      '2026-11-28T00:00:00Z',
      '2026-11-27T04:00:00Z',
      [...days(29, 31), 'M 2026-11'],
    ],
    [
      'the last 30 days up to today read the days: today may already hold hits',
      '2026-10-28T00:00:00Z',
      '2026-11-27T00:00:00Z',
      '2026-11-27T04:00:00Z',
      [...days(28, 31), ...days(1, 26, '2026-11')],
    ],
    [
      'a span ending within the skew of now reads the days: a hit may lie beyond its end',
      '2026-11-01T00:00:00Z',
      '2026-11-28T00:00:00Z',
      '2026-11-27T23:57:00Z',
      days(1, 27, '2026-11'),
    ],
    [
      'a span ending just past the skew reads the month',
      '2026-11-01T00:00:00Z',
      '2026-11-28T00:00:00Z',
      '2026-11-27T23:54:59Z',
      ['M 2026-11'],
    ],
    [
      'a span starting after the first of its last month reads the days',
      '2026-11-02T00:00:00Z',
      '2026-11-05T00:00:00Z',
      '2026-11-03T12:00:00Z',
      days(2, 4, '2026-11'),
    ],
    [
      'without a horizon, only whole months',
      '2026-11-01T00:00:00Z',
      '2026-11-03T00:00:00Z',
      undefined,
      days(1, 2, '2026-11'),
    ],
    [
      'a span ending in a past month reads its days',
      '2026-09-01T00:00:00Z',
      '2026-10-03T00:00:00Z',
      '2026-11-27T04:00:00Z',
      ['M 2026-09', ...days(1, 2)],
    ],
    [
      'a span ending on a month boundary is unchanged',
      '2026-09-30T00:00:00Z',
      '2026-11-01T00:00:00Z',
      '2026-10-31T12:00:00Z',
      ['D 2026-09-30', 'M 2026-10'],
    ],
    [
      '90 days through today: two whole months, this one read whole',
      '2026-08-30T00:00:00Z',
      '2026-11-28T00:00:00Z',
      '2026-11-27T04:00:00Z',
      ['D 2026-08-30', 'D 2026-08-31', 'M 2026-09', 'M 2026-10', 'M 2026-11'],
    ],
    [
      'a leap February through its 29th, read on the 28th',
      '2028-02-01T00:00:00Z',
      '2028-03-01T00:00:00Z',
      '2028-02-28T10:00:00Z',
      ['M 2028-02'],
    ],
    [
      'a February through the 28th of a leap year, read on the 27th',
      '2028-02-01T00:00:00Z',
      '2028-02-29T00:00:00Z',
      '2028-02-27T10:00:00Z',
      ['M 2028-02'],
    ],
    [
      'a span across the year end, read on New Year',
      '2026-12-31T00:00:00Z',
      '2027-01-02T00:00:00Z',
      '2027-01-01T08:00:00Z',
      ['D 2026-12-31', 'M 2027-01'],
    ],
    [
      'a span that is not whole UTC days',
      '2026-11-01T06:00:00Z',
      '2026-11-28T00:00:00Z',
      '2026-11-27T04:00:00Z',
      undefined,
    ],
    [
      'an end that is not a UTC midnight',
      '2026-11-01T00:00:00Z',
      '2026-11-27T12:00:00Z',
      '2026-11-27T04:00:00Z',
      undefined,
    ],
  ])('%s', (_, from, to, now, expected) => {
    expect(labels(from, to, now)).toEqual(expected);
  });
});
