import { periodPieces } from '../../../src/query/periodPieces';
import type { PeriodPiece } from '../../../src/query/periodPieces';

const ms = (iso: string): number => Date.parse(iso);
/** `M 2024-02` (a month), `D 2024-02-29` (a day), `m 23:59` (a minute), runs of minutes as `m 23:00…23:59 (60)`. */
function labels(pieces: readonly PeriodPiece[] | undefined): string[] | undefined {
  if (pieces === undefined) return undefined;
  const out: string[] = [];
  for (const { level, start } of pieces) {
    const iso = new Date(start).toISOString();
    if (level === 'month') out.push(`M ${iso.slice(0, 7)}`);
    else if (level === 'day') out.push(`D ${iso.slice(0, 10)}`);
    else {
      const label = `m ${iso.slice(11, 16)}`;
      const previous = out[out.length - 1];
      const run = previous?.match(/^m (\d\d:\d\d)(?:…\d\d:\d\d \((\d+)\))?$/);
      if (run) out[out.length - 1] = `m ${run[1]}…${label.slice(2)} (${Number(run[2] ?? 1) + 1})`;
      else out.push(label);
    }
  }
  return out;
}

describe('periodPieces', () => {
  it.each([
    ['a UTC day is its daily document', '2026-03-10T00:00:00Z', '2026-03-11T00:00:00Z', Infinity, ['D 2026-03-10']],
    [
      'a leap February is its monthly document',
      '2024-02-01T00:00:00Z',
      '2024-03-01T00:00:00Z',
      Infinity,
      ['M 2024-02'],
    ],
    [
      'a range across a year end takes the whole month, then days',
      '2025-12-01T00:00:00Z',
      '2026-01-03T00:00:00Z',
      Infinity,
      ['M 2025-12', 'D 2026-01-01', 'D 2026-01-02'],
    ],
    [
      'the end of a month is days, then the next whole month',
      '2024-02-28T00:00:00Z',
      '2024-04-01T00:00:00Z',
      Infinity,
      ['D 2024-02-28', 'D 2024-02-29', 'M 2024-03'],
    ],
    [
      'a UTC hour without minute documents has no pieces',
      '2026-03-10T10:00:00Z',
      '2026-03-10T11:00:00Z',
      Infinity,
      undefined,
    ],
    [
      'a UTC hour inside the retention is its minutes',
      '2026-03-10T10:00:00Z',
      '2026-03-10T11:00:00Z',
      ms('2026-03-09T12:00:00Z'),
      ['m 10:00…10:59 (60)'],
    ],
    [
      'an hour starting one minute before the retention edge has no pieces',
      '2026-03-10T10:00:00Z',
      '2026-03-10T11:00:00Z',
      ms('2026-03-10T10:01:00Z'),
      undefined,
    ],
    [
      'an hour starting at the retention edge is its minutes',
      '2026-03-10T10:01:00Z',
      '2026-03-10T11:01:00Z',
      ms('2026-03-10T10:01:00Z'),
      ['m 10:01…11:00 (60)'],
    ],
    [
      'a Kolkata day (+05:30) inside the retention is minutes of two UTC days',
      '2026-03-09T18:30:00Z',
      '2026-03-10T18:30:00Z',
      ms('2026-03-09T00:00:00Z'),
      ['m 18:30…18:29 (1440)'],
    ],
    [
      'a Kathmandu day (+05:45) reaching into a whole UTC day still reads minutes on both sides',
      '2026-03-09T18:15:00Z',
      '2026-03-11T18:15:00Z',
      ms('2026-03-09T00:00:00Z'),
      ['m 18:15…23:59 (345)', 'D 2026-03-10', 'm 00:00…18:14 (1095)'],
    ],
    [
      'a Berlin day (+01:00) outside the retention has no pieces',
      '2026-03-09T23:00:00Z',
      '2026-03-10T23:00:00Z',
      Infinity,
      undefined,
    ],
    ['a half minute has no pieces', '2026-03-10T10:00:00Z', '2026-03-10T10:00:30Z', 0, undefined],
  ])('%s', (_name, from, to, minutesFrom, expected) => {
    expect(labels(periodPieces(ms(from), ms(to), minutesFrom))).toEqual(expected);
  });
});
