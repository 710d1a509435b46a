/**
 * Validates a value a client sets for a dimension itself (a mutation's `source`, `country`, …). Unlike derived
 * values, which third parties choose and which are cut to size, a client's own value is refused when it does not
 * fit: empty, longer than the dimension keeps, control characters, a country that is not ISO 3166-1 alpha-2, a
 * device outside the classes. Whitespace runs become one space; utmSource and utmMedium are lower-cased as when
 * derived. The markers (`(unknown)`, and `(direct)`, `(internal)`, `(none)` where they apply) are accepted.
 */
import { describe } from '../../errors/describe';
import { CONTROL_CHARACTERS } from '../controlCharacters';
import type { FieldName } from '../InputRejectedError';
import { rejection } from '../InputRejectedError';
import { RejectReason } from '../RejectReason';
import { DEVICE_CLASSES, isDeviceClass } from './DeviceClass';
import type { Dimension } from './Dimension';
import { MAX_DIMENSION_VALUE_LENGTH } from './Dimension';
import { DIRECT, INTERNAL, NONE, UNKNOWN } from './dimensionMarkers';

const MARKERS: Readonly<Record<Dimension, readonly string[]>> = {
  source: [DIRECT, INTERNAL, UNKNOWN],
  utmSource: [NONE, UNKNOWN],
  utmMedium: [NONE, UNKNOWN],
  utmCampaign: [NONE, UNKNOWN],
  browser: [UNKNOWN],
  os: [UNKNOWN],
  device: [UNKNOWN],
  country: [UNKNOWN],
};

const WHITESPACE_RUNS = /\s+/gu;

export function parseExplicitDimension(dimension: Dimension, text: string, field: FieldName = dimension): string {
  if (CONTROL_CHARACTERS.test(text)) {
    throw rejection(
      RejectReason.DIMENSION_VALUE_HAS_CONTROL,
      field,
      `must not contain control characters, got ${describe(text)}`,
    );
  }
  let value = text.replace(WHITESPACE_RUNS, ' ').trim();
  if (!value.isWellFormed()) {
    throw rejection(RejectReason.MALFORMED_UNICODE, field, `must be well-formed Unicode, got ${describe(text)}`);
  }
  if (value === '') throw rejection(RejectReason.DIMENSION_VALUE_EMPTY, field, 'must not be empty');
  if (MARKERS[dimension].includes(value)) return value;
  if (dimension === 'country') {
    value = value.toUpperCase();
    if (!/^[A-Z]{2}$/.test(value)) {
      throw rejection(
        RejectReason.COUNTRY_NOT_ISO_CODE,
        field,
        `must be an ISO 3166-1 alpha-2 code such as "DE", or "${UNKNOWN}", got ${describe(text)}`,
      );
    }
    return value;
  }
  if (dimension === 'device') {
    value = value.toLowerCase();
    if (!isDeviceClass(value)) {
      throw rejection(
        RejectReason.DEVICE_NOT_KNOWN,
        field,
        `must be one of ${DEVICE_CLASSES.join(', ')} or ${UNKNOWN}, got ${describe(text)}`,
      );
    }
    return value;
  }
  const maxLength = MAX_DIMENSION_VALUE_LENGTH[dimension];
  const length = [...value].length;
  if (length > maxLength) {
    throw rejection(
      RejectReason.DIMENSION_VALUE_TOO_LONG,
      field,
      `must be at most ${maxLength} characters, got ${length}`,
    );
  }
  return dimension === 'utmSource' || dimension === 'utmMedium' ? value.toLowerCase() : value;
}
