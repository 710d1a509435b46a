import { normaliseValue, truncateCodePoints } from '../../../../src/domain/dimensions/normaliseValue';

describe('normaliseValue', () => {
  it.each([
    ['Chrome', 10, 'Chrome'],
    ['  a  b\t\nc  ', 10, 'a b c'],
    ['a\u0000b\u0085c', 10, 'a b c'],
    ['', 10, '(empty)'],
    [' \t ', 10, '(empty)'],
    ['abcdefghijkl', 5, 'abcde'],
    ['abcd efgh', 5, 'abcd'],
    ['😀😀😀', 2, '😀😀'],
    ['a\ud800b', 10, 'a\ufffdb'],
  ])('%j (max %i) → %j', (text, maxLength, expected) => {
    expect(normaliseValue(text, maxLength, '(empty)')).toBe(expected);
  });
});

describe('truncateCodePoints', () => {
  it.each([
    ['abc', 5, 'abc'],
    ['abc', 2, 'ab'],
    ['a😀b', 2, 'a😀'],
    ['😀', 0, ''],
  ])('%j to %i → %j', (text, maxLength, expected) => {
    expect(truncateCodePoints(text, maxLength)).toBe(expected);
  });
});
