/** Validates an optional IANA time zone argument: absent means UTC; an unknown name is BAD_USER_INPUT naming it. */
import { BadUserInputError } from '../errors/BadUserInputError';
import { describe } from '../errors/describe';
import { canonicalTimeZone, isKnownTimeZone, UTC_ZONE } from '../time/zoneOffset';

export function parseTimeZone(value: string | null | undefined, field = 'timeZone'): string {
  if (value === undefined || value === null || value === UTC_ZONE) return UTC_ZONE;
  if (value.length > 0 && value.length <= 64 && isKnownTimeZone(value)) return canonicalTimeZone(value);
  throw new BadUserInputError(
    `${field} must be an IANA time zone name such as "Europe/Berlin" or "UTC", got ${describe(value)}`,
    field,
  );
}
