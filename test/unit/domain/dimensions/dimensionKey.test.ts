import fc from 'fast-check';
import { dimensionKey, dimensionValue } from '../../../../src/domain/dimensions/dimensionKey';

/** What MongoDB accepts as one field name in an update path: no `.`, no NUL, no leading `$`, not empty. */
function isLegalFieldName(key: string): boolean {
  return key !== '' && !key.includes('.') && !key.includes('\u0000') && !key.startsWith('$') && key.isWellFormed();
}

const values = fc.oneof(
  fc.string({ minLength: 1, unit: 'binary' }),
  fc.string({ minLength: 1, unit: fc.constantFrom('.', '$', '%', '2', 'E', 'e', '4', 'u', 'D', '8', '0', 'a') }),
  fc.string({ minLength: 1, unit: fc.constantFrom('\ud800', '\udc00', '😀', '.', '%', '\u0000') }),
);

describe('dimensionKey', () => {
  it.each([
    ['google.com', 'google%2Ecom'],
    ['$where', '%24where'],
    ['100%', '100%25'],
    ['%2E', '%252E'],
    ['a\u0000b', 'a%00b'],
    ['(direct)', '(direct)'],
    ['bücher.de', 'bücher%2Ede'],
    ['a\ud800', 'a%uD800'],
    ['\udc00z', '%uDC00z'],
    ['😀', '😀'],
  ])('%j → %j', (value, key) => {
    expect(dimensionKey(value)).toBe(key);
    expect(dimensionValue(key)).toBe(value);
  });

  it('makes every non-empty string a legal MongoDB field name', () => {
    fc.assert(fc.property(values, (value) => isLegalFieldName(dimensionKey(value))));
  });

  it('is injective: two different values never share a key', () => {
    fc.assert(
      fc.property(values, values, (a, b) => {
        fc.pre(a !== b);
        return dimensionKey(a) !== dimensionKey(b);
      }),
    );
  });

  it('is undone by dimensionValue', () => {
    fc.assert(fc.property(values, (value) => dimensionValue(dimensionKey(value)) === value));
  });

  it('refuses the empty value, which no normalised dimension has', () => {
    expect(() => dimensionKey('')).toThrow(new RangeError('a dimension value must not be empty'));
  });

  it.each(['a.b', '%', '%2e', '%41', '$x', '%uD83D%uDE00'])(
    'dimensionValue refuses %j, which no value maps to',
    (key) => {
      expect(() => dimensionValue(key)).toThrow(new RangeError(`not a dimension key: ${JSON.stringify(key)}`));
    },
  );
});
