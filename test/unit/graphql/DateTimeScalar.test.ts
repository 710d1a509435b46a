import { BadUserInputError } from '../../../src/errors/BadUserInputError';
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

  it.each([['0000-01-01T00:00:00Z'], ['0050-06-15T12:00:00Z'], ['0099-12-31T23:59:59Z'], ['0999-12-31T23:59:59Z']])(
    'rejects %s: years below 1000 are outside the type (Date.UTC would map 0–99 to 1900–1999)',
    (input) => {
      expect(() => parseDateTime(input)).toThrow(`expected a date-time in the years 1000 to 9999, got "${input}"`);
    },
  );

  it('accepts the first and last instants of the range', () => {
    expect(parseDateTime('1000-01-01T00:00:00Z').toISOString()).toBe('1000-01-01T00:00:00.000Z');
    expect(parseDateTime('9999-12-31T23:59:59.999Z').toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });

  it('rejects an offset that carries the instant past 9999', () => {
    expect(() => parseDateTime('9999-12-31T23:00:00-05:00')).toThrow('expected an ISO-8601 date-time');
  });

  it('quotes a bounded prefix of a huge input', () => {
    const huge = Array.from({ length: 100_000 }, () => 1);
    expect(() => parseDateTime(huge)).toThrow(/got a list of 100000 items$/);
    const long = 'x'.repeat(1_000_000);
    // The first 60 characters and the length, never the megabyte: the exact text, so a parse that throws nothing fails.
    expect(() => parseDateTime(long)).toThrow(BadUserInputError);
    expect(() => parseDateTime(long)).toThrow(
      new BadUserInputError(
        `expected an ISO-8601 date-time with an offset such as "2026-11-21T12:00:00Z", got "${'x'.repeat(60)}…" (1000000 characters)`,
      ),
    );
  });
});
