import {
  formatChange,
  formatCount,
  formatDuration,
  formatPercent,
  formatPointsChange,
  formatRatio,
} from '../../../web/dashboard/formatNumbers';

describe('the dashboard numbers', () => {
  it.each([
    [0, '0'],
    [1204, '1,204'],
    [1234567, '1,234,567'],
    [null, '—'],
    [undefined, '—'],
  ])('writes the count %p as %s', (value, text) => {
    expect(formatCount(value)).toBe(text);
  });

  it.each([
    [2.5, '2.5'],
    [10 / 3, '3.33'],
    [1, '1'],
    [null, '—'],
    [Infinity, '—'],
  ])('writes the ratio %p as %s', (value, text) => {
    expect(formatRatio(value)).toBe(text);
  });

  it.each([
    [0.12, '▲ 12 %', 'up'],
    [-0.034, '▼ 3 %', 'down'],
    [1.5, '▲ 150 %', 'up'],
    [0.004, '▲ <1 %', 'up'],
    [-0.004, '▼ <1 %', 'down'],
    [0, '± 0 %', 'flat'],
    [12.345, '▲ 1,235 %', 'up'],
  ])('writes the change %p as %s', (change, text, direction) => {
    expect(formatChange(change)).toEqual({ text, direction });
  });

  it.each([
    [0.5, '50 %'],
    [0, '0 %'],
    [1, '100 %'],
    [0.375, '38 %'],
    [null, '—'],
    [NaN, '—'],
  ])('writes the rate %p as %s', (value, text) => {
    expect(formatPercent(value)).toBe(text);
  });

  it.each([
    [0, '0s'],
    [45, '45s'],
    [59.6, '1m 00s'],
    [60, '1m 00s'],
    [125, '2m 05s'],
    [3599, '59m 59s'],
    [3725, '1h 02m 05s'],
    [null, '—'],
    [-1, '—'],
  ])('writes the duration %p seconds as %s', (value, text) => {
    expect(formatDuration(value)).toBe(text);
  });

  it.each([
    [0.5, 0.25, '▲ 25 pp', 'up'],
    [0.375, 0.25, '▲ 13 pp', 'up'],
    [0.4, 0.42, '▼ 2 pp', 'down'],
    [0.501, 0.5, '▲ <1 pp', 'up'],
    [0.5, 0.5, '± 0 pp', 'flat'],
  ])('writes the change of a rate to %p from %p as %s', (current, earlier, text, direction) => {
    expect(formatPointsChange(current, earlier)).toEqual({ text, direction });
  });
});
