/**
 * `DateTime`: an ISO-8601 instant with an explicit offset (`2026-11-21T12:00:00Z`), serialized in UTC.
 * A bad value fails with BAD_USER_INPUT and says what was expected.
 */
import { GraphQLScalarType, Kind } from 'graphql';
import { BadUserInputError } from '../../errors/BadUserInputError';
import { describe } from '../../errors/describe';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
/**
 * Years the type represents. Below 1000 is a client mistake, never an analytics date, and the years 0–99
 * would break bucket math downstream (`Date.UTC` maps them to 1900–1999).
 */
export const MIN_YEAR = 1000;
export const MAX_YEAR = 9999;

export function parseDateTime(value: unknown): Date {
  // Tested once: batches of hits parse thousands of these per request.
  if (typeof value === 'string' && ISO_INSTANT.test(value)) {
    if (Number(value.slice(0, 4)) < MIN_YEAR) {
      throw new BadUserInputError(
        `expected a date-time in the years ${MIN_YEAR} to ${MAX_YEAR}, got ${describe(value)}`,
      );
    }
    const date = new Date(value);
    const year = date.getUTCFullYear();
    // An offset can carry 9999-12-31T23:00-05:00 into the year 10000, which toISOString cannot round-trip.
    if (!Number.isNaN(date.getTime()) && calendarValid(value) && year >= MIN_YEAR && year <= MAX_YEAR) return date;
  }
  throw new BadUserInputError(
    `expected an ISO-8601 date-time with an offset such as "2026-11-21T12:00:00Z", got ${describe(value)}`,
  );
}

/** `Date` rolls 2026-02-30 over to March; a client that sent it made a mistake we should report. */
function calendarValid(value: string): boolean {
  const [year, month, day] = [Number(value.slice(0, 4)), Number(value.slice(5, 7)), Number(value.slice(8, 10))];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && Number(value.slice(11, 13)) < 24;
}

export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  description:
    'An instant in ISO-8601 with an offset, e.g. "2026-11-21T12:00:00Z", in the years 1000 to 9999. Always returned in UTC.',
  serialize(value) {
    if (value instanceof Date) return value.toISOString();
    if (typeof value === 'number') return new Date(value).toISOString();
    throw new TypeError(`DateTime cannot serialize ${describe(value)}`);
  },
  parseValue: parseDateTime,
  parseLiteral(ast) {
    return parseDateTime(ast.kind === Kind.STRING ? ast.value : ((ast as { value?: unknown }).value ?? ast.kind));
  },
});
