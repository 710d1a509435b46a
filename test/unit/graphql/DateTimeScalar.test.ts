import { parseDateTime } from '../../../src/graphql/scalars/DateTimeScalar';

describe('DateTime', () => {
  it.each([
    ['2026-11-21T12:00:00Z', '2026-11-21T12:00:00.000Z'],
    ['2026-11-21T12:00Z', '2026-11-21T12:00:00.000Z'],
    ['2026-11-21T13:00:00.5+01:00', '2026-11-21T12:00:00.500Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
  ])('parses %s as %s', (input, expected) => {
    expect(parseDateTime(input).toISOString()).toBe(expected);
  });

  it.each([
    ['yesterday'],
    ['2026-11-21'],
    ['2026-11-21T12:00:00'],
    ['2023-02-29T00:00:00Z'],
    ['2026-13-01T00:00:00Z'],
    [1700000000000],
    [null],
  ])('rejects %p with what it expected', (input) => {
    expect(() => parseDateTime(input)).toThrow(
      `expected an ISO-8601 date-time with an offset such as "2026-11-21T12:00:00Z", got ${JSON.stringify(input)}`,
    );
  });
});
