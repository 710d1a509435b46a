import { counterPieces } from '../../../src/query/counterPieces';
import { periodPieces } from '../../../src/query/periodPieces';
import { counterPieceDropped, periodPieceDropped, secondDropped } from '../../../src/query/retainedDetail';

const ms = (iso: string): number => Date.parse(iso);
// Minutes kept from 1 March 2028, daily documents from 28 February (a leap year: 29 February lies between).
const CUTOFFS = { minutesFrom: ms('2028-03-01T00:00:00Z'), daysFrom: ms('2028-02-28T00:00:00Z') };

describe('retainedDetail', () => {
  it.each([
    // [from, to): which counter pieces it splits into, and whether any is dropped
    ['a whole UTC day long ago (a monthly counter)', '2027-01-01T00:00:00Z', '2027-01-02T00:00:00Z', false],
    ['a whole hour of a dropped day', '2028-02-27T23:00:00Z', '2028-02-28T00:00:00Z', true],
    ['a whole hour of a kept day whose minutes are dropped', '2028-02-29T23:00:00Z', '2028-03-01T00:00:00Z', false],
    ['a minute of a day whose minutes are dropped', '2028-02-29T23:59:00Z', '2028-03-01T00:00:00Z', true],
    ['a minute of the first day whose minutes are kept', '2028-03-01T00:00:00Z', '2028-03-01T00:01:00Z', false],
    ['a Berlin day over a dropped UTC day (hours of two days)', '2028-02-26T23:00:00Z', '2028-02-27T23:00:00Z', true],
    ['a Berlin day over kept UTC days', '2028-02-28T23:00:00Z', '2028-02-29T23:00:00Z', false],
    ['a Kolkata day whose boundary minutes are dropped', '2028-02-28T18:30:00Z', '2028-02-29T18:30:00Z', true],
    ['a Kolkata day whose boundary minutes are kept', '2028-03-01T18:30:00Z', '2028-03-02T18:30:00Z', false],
  ])('%s: dropped %s', (_name, from, to, dropped) => {
    expect(counterPieces(ms(from), ms(to)).some((piece) => counterPieceDropped(piece, CUTOFFS))).toBe(dropped);
  });

  it.each([
    ['a whole month before every cutoff', '2028-01-01T00:00:00Z', '2028-02-01T00:00:00Z', false],
    ['a dropped UTC day', '2028-02-27T00:00:00Z', '2028-02-28T00:00:00Z', true],
    ['the first kept UTC day', '2028-02-28T00:00:00Z', '2028-02-29T00:00:00Z', false],
    ['the year end, its days dropped', '2027-12-31T00:00:00Z', '2028-01-01T00:00:00Z', true],
  ])('sketch periods of %s: dropped %s', (_name, from, to, dropped) => {
    const pieces = periodPieces(ms(from), ms(to)) ?? [];
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.some((piece) => periodPieceDropped(piece, CUTOFFS))).toBe(dropped);
  });

  it('drops minute sketches and seconds of days before the minutes cutoff', () => {
    const minute = (iso: string) => ({ level: 'minute' as const, start: ms(iso) });
    expect(periodPieceDropped(minute('2028-02-29T23:59:00Z'), CUTOFFS)).toBe(true);
    expect(periodPieceDropped(minute('2028-03-01T00:00:00Z'), CUTOFFS)).toBe(false);
    expect(secondDropped(ms('2028-02-29T23:59:59Z'), CUTOFFS)).toBe(true);
    expect(secondDropped(ms('2028-03-01T00:00:00Z'), CUTOFFS)).toBe(false);
  });
});
