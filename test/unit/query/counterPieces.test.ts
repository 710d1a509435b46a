import { counterPieces } from '../../../src/query/counterPieces';
import type { CounterPiece } from '../../../src/query/counterPieces';

const ms = (iso: string): number => Date.parse(iso);
const day = (t: number): string => new Date(t).toISOString().slice(0, 10);
/** Compact labels: `D 03-10` (a monthly day counter), `H 03-09 23` (an hourly counter), `M 05-31 18:30` (a minute). */
const label = (piece: CounterPiece): string => {
  switch (piece.source) {
    case 'monthly':
      return `D ${day(piece.doc).slice(5, 8)}${String(piece.dayOfMonth).padStart(2, '0')}`;
    case 'hourly':
      return `H ${day(piece.doc).slice(5)} ${piece.hour}`;
    case 'minute':
      return `M ${day(piece.doc).slice(5)} ${piece.hour}:${piece.minute}`;
  }
};
const summary = (from: string, to: string): string[] => {
  const labels = counterPieces(ms(from), ms(to)).map(label);
  // Runs of minutes are summarised as first…last (count).
  const out: string[] = [];
  for (const l of labels) {
    const prev = out[out.length - 1];
    if (l.startsWith('M') && prev?.startsWith('M')) {
      const [first, , n] = prev.split(/…| \(|\)/);
      out[out.length - 1] = `${first}…${l.slice(2)} (${Number(n ?? 1) + 1})`;
    } else out.push(l);
  }
  return out;
};

describe('counterPieces', () => {
  it.each([
    ['a UTC day is one monthly counter', '2026-03-10T00:00:00Z', '2026-03-11T00:00:00Z', ['D 03-10']],
    [
      'a Berlin day is 24 hourly counters of two UTC days',
      '2026-03-09T23:00:00Z',
      '2026-03-10T23:00:00Z',
      ['H 03-09 23', ...Array.from({ length: 23 }, (_, h) => `H 03-10 ${h}`)],
    ],
    [
      'a Kolkata day reads minutes only in its boundary hours',
      '2026-05-31T18:30:00Z',
      '2026-06-01T18:30:00Z',
      [
        'M 05-31 18:30…05-31 18:59 (30)',
        ...[19, 20, 21, 22, 23].map((h) => `H 05-31 ${h}`),
        ...Array.from({ length: 18 }, (_, h) => `H 06-01 ${h}`),
        'M 06-01 18:0…06-01 18:29 (30)',
      ],
    ],
    ['a minute is one minute counter', '2026-03-10T14:05:00Z', '2026-03-10T14:06:00Z', ['M 03-10 14:5']],
    ['an empty interval is nothing', '2026-03-10T14:05:00Z', '2026-03-10T14:05:00Z', []],
  ])('%s', (_name, from, to, expected) => {
    expect(summary(from, to)).toEqual(expected);
  });

  it('covers every minute of an interval exactly once', () => {
    const from = ms('2026-02-27T21:17:00Z');
    const to = ms('2026-03-02T02:45:00Z');
    const minutes = counterPieces(from, to).reduce(
      (sum, p) => sum + (p.source === 'monthly' ? 1_440 : p.source === 'hourly' ? 60 : 1),
      0,
    );
    expect(minutes).toBe((to - from) / 60_000);
  });
});
