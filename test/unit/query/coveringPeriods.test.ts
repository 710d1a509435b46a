import { coveringPeriods } from '../../../src/query/coveringPeriods';

const ms = (iso: string): number => Date.parse(iso);
const iso = (t: number): string => new Date(t).toISOString().replace('.000', '');
const NO_MINUTES = Infinity;

describe('coveringPeriods', () => {
  it.each([
    // name, from, to, minutesFrom, cover from, cover to
    [
      'a union of UTC days is its own cover',
      '2026-03-01T00:00:00Z',
      '2026-03-08T00:00:00Z',
      NO_MINUTES,
      '2026-03-01T00:00:00Z',
      '2026-03-08T00:00:00Z',
    ],
    [
      'a Berlin day is covered by two UTC days',
      '2026-03-09T23:00:00Z',
      '2026-03-10T23:00:00Z',
      NO_MINUTES,
      '2026-03-09T00:00:00Z',
      '2026-03-11T00:00:00Z',
    ],
    [
      'a Kolkata week (+05:30) by eight UTC days',
      '2026-03-01T18:30:00Z',
      '2026-03-08T18:30:00Z',
      NO_MINUTES,
      '2026-03-01T00:00:00Z',
      '2026-03-09T00:00:00Z',
    ],
    [
      'a Kathmandu day (+05:45) by two UTC days',
      '2026-03-09T18:15:00Z',
      '2026-03-10T18:15:00Z',
      NO_MINUTES,
      '2026-03-09T00:00:00Z',
      '2026-03-11T00:00:00Z',
    ],
    [
      'a Chatham day (+13:45, DST) by two UTC days',
      '2026-01-09T10:15:00Z',
      '2026-01-10T10:15:00Z',
      NO_MINUTES,
      '2026-01-09T00:00:00Z',
      '2026-01-11T00:00:00Z',
    ],
    // Berlin's 23-hour 29 March 2026: 28 March 23:00Z to 29 March 22:00Z.
    [
      'a 23-hour DST day by two UTC days',
      '2026-03-28T23:00:00Z',
      '2026-03-29T22:00:00Z',
      NO_MINUTES,
      '2026-03-28T00:00:00Z',
      '2026-03-30T00:00:00Z',
    ],
    [
      'a local month in New York by the UTC days around it',
      '2026-02-01T05:00:00Z',
      '2026-03-01T05:00:00Z',
      NO_MINUTES,
      '2026-02-01T00:00:00Z',
      '2026-03-02T00:00:00Z',
    ],
    [
      'an old Berlin day stays two UTC days inside a long retention window',
      '2026-03-09T23:00:00Z',
      '2026-03-10T23:00:00Z',
      ms('2026-03-11T00:00:00Z'),
      '2026-03-09T00:00:00Z',
      '2026-03-11T00:00:00Z',
    ],
    [
      'a recent Berlin day is its own minutes',
      '2026-03-09T23:00:00Z',
      '2026-03-10T23:00:00Z',
      ms('2026-03-09T12:00:00Z'),
      '2026-03-09T23:00:00Z',
      '2026-03-10T23:00:00Z',
    ],
    [
      'a Berlin day across the retention edge: the old end by its UTC day, the recent end by minutes',
      '2026-03-09T23:00:00Z',
      '2026-03-10T23:00:00Z',
      ms('2026-03-10T00:00:00Z'),
      '2026-03-09T00:00:00Z',
      '2026-03-10T23:00:00Z',
    ],
    [
      'a day starting a minute before the edge needs that UTC day',
      '2026-03-10T05:29:00Z',
      '2026-03-11T05:29:00Z',
      ms('2026-03-10T05:30:00Z'),
      '2026-03-10T00:00:00Z',
      '2026-03-11T05:29:00Z',
    ],
    [
      'seconds round out to whole minutes',
      '2026-03-10T10:05:10Z',
      '2026-03-10T10:07:20Z',
      ms('2026-03-10T00:00:00Z'),
      '2026-03-10T10:05:00Z',
      '2026-03-10T10:08:00Z',
    ],
    [
      'seconds outside the retention round out to the UTC day',
      '2026-03-10T10:05:10Z',
      '2026-03-10T10:07:20Z',
      NO_MINUTES,
      '2026-03-10T00:00:00Z',
      '2026-03-11T00:00:00Z',
    ],
    [
      'a range inside one old day ending in retention minutes of that day reads the whole day',
      '2026-03-10T08:00:00Z',
      '2026-03-10T12:30:00Z',
      ms('2026-03-10T09:00:00Z'),
      '2026-03-10T00:00:00Z',
      '2026-03-11T00:00:00Z',
    ],
  ])('%s', (_name, from, to, minutesFrom, coverFrom, coverTo) => {
    const cover = coveringPeriods(ms(from), ms(to), minutesFrom);
    expect([iso(cover.from), iso(cover.to)]).toEqual([coverFrom.replace('.000', ''), coverTo]);
    // The pieces tile the cover exactly, and no minute lies before the retention edge.
    let t = cover.from;
    for (const piece of cover.pieces) {
      expect(piece.start).toBe(t);
      if (piece.level === 'minute') expect(piece.start).toBeGreaterThanOrEqual(minutesFrom);
      t =
        piece.level === 'minute'
          ? t + 60_000
          : piece.level === 'day'
            ? t + 86_400_000
            : Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth() + 1, 1);
    }
    expect(t).toBe(cover.to);
    expect(cover.from).toBeLessThanOrEqual(ms(from));
    expect(cover.to).toBeGreaterThanOrEqual(ms(to));
  });
});
