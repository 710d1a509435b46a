import { currencyDigits } from '../../../../src/domain/events/currencyDigits';
import { fromMinorUnits, toMinorUnits } from '../../../../src/domain/events/minorUnits';

describe('minor units', () => {
  it.each([
    ['EUR', 2],
    ['USD', 2],
    ['JPY', 0],
    ['KWD', 3],
    ['CLP', 0],
    ['XYZ', 2],
  ])('%s has %d minor-unit digits', (currency, digits) => {
    expect(currencyDigits(currency)).toBe(digits);
  });

  it.each([
    ['0', 2, 0],
    ['0.5', 2, 50],
    ['10.05', 2, 1005],
    ['007.10', 2, 710],
    ['12', 0, 12],
  ])('reads %s at %d digits as %d', (amount, digits, minor) => {
    expect(toMinorUnits(amount, digits)).toEqual({ ok: true, minor });
  });

  it.each([
    ['', 'notDecimal'],
    ['.5', 'notDecimal'],
    ['5.', 'notDecimal'],
    [' 5', 'notDecimal'],
    ['+5', 'notDecimal'],
    ['-5', 'negative'],
    ['1.001', 'tooPrecise'],
    ['9007199254740992', 'tooLarge'],
  ])('refuses %j as %s', (amount, problem) => {
    expect(toMinorUnits(amount, 2)).toEqual({ ok: false, problem });
  });

  it.each([
    [2990, 2, '29.90'],
    [1, 2, '0.01'],
    [0, 2, '0.00'],
    [1500, 0, '1500'],
    [1234, 3, '1.234'],
  ])('writes %d at %d digits as %s', (minor, digits, text) => {
    expect(fromMinorUnits(minor, digits)).toBe(text);
  });
});
