import { formatChange, formatCount, formatRatio } from '../../../web/dashboard/formatNumbers';

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
});
