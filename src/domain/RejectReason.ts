/** Why a hit or an impression was refused: a closed list, sent to clients as `extensions.reason`. */
export enum RejectReason {
  SITE_EMPTY = 'SITE_EMPTY',
  SITE_TOO_LONG = 'SITE_TOO_LONG',
  SITE_HAS_SLASH = 'SITE_HAS_SLASH',
  SITE_HAS_WHITESPACE_OR_CONTROL = 'SITE_HAS_WHITESPACE_OR_CONTROL',
  PAGE_NOT_ABSOLUTE = 'PAGE_NOT_ABSOLUTE',
  PAGE_TOO_LONG = 'PAGE_TOO_LONG',
  PAGE_HAS_CONTROL = 'PAGE_HAS_CONTROL',
  MALFORMED_UNICODE = 'MALFORMED_UNICODE',
  AT_BEFORE_EPOCH = 'AT_BEFORE_EPOCH',
  AT_IN_FUTURE = 'AT_IN_FUTURE',
  COUNT_NOT_POSITIVE_INTEGER = 'COUNT_NOT_POSITIVE_INTEGER',
  COUNT_TOO_LARGE = 'COUNT_TOO_LARGE',
  BATCH_TOO_LARGE = 'BATCH_TOO_LARGE',
  /** Columnar batches: a per-hit column whose length differs from pageIndex, or a dictionary left empty. */
  COLUMNS_MISMATCH = 'COLUMNS_MISMATCH',
  /** Columnar batches: an index outside its dictionary. */
  INDEX_OUT_OF_RANGE = 'INDEX_OUT_OF_RANGE',
  /** Columnar batches: an atMs that is not a whole number of milliseconds. */
  AT_NOT_INTEGER = 'AT_NOT_INTEGER',
  /** Impressions: a userId or itemId that is empty, too long, or holds control characters. */
  ID_EMPTY = 'ID_EMPTY',
  ID_TOO_LONG = 'ID_TOO_LONG',
  ID_HAS_CONTROL = 'ID_HAS_CONTROL',
  /** Dimensions (issue 20): a referrer, page URL or User-Agent longer than any browser sends. */
  REFERRER_TOO_LONG = 'REFERRER_TOO_LONG',
  PAGE_URL_TOO_LONG = 'PAGE_URL_TOO_LONG',
  USER_AGENT_TOO_LONG = 'USER_AGENT_TOO_LONG',
  /** Dimensions: a client IP that is not an IPv4 or IPv6 address. */
  CLIENT_IP_MALFORMED = 'CLIENT_IP_MALFORMED',
  /** Dimensions: an explicit value that is empty, too long or holds control characters. */
  DIMENSION_VALUE_EMPTY = 'DIMENSION_VALUE_EMPTY',
  DIMENSION_VALUE_TOO_LONG = 'DIMENSION_VALUE_TOO_LONG',
  DIMENSION_VALUE_HAS_CONTROL = 'DIMENSION_VALUE_HAS_CONTROL',
  /** Dimensions: an explicit country that is not an ISO 3166-1 alpha-2 code, a device outside the classes. */
  COUNTRY_NOT_ISO_CODE = 'COUNTRY_NOT_ISO_CODE',
  DEVICE_NOT_KNOWN = 'DEVICE_NOT_KNOWN',
  /** Visitors (issue 19): a visitor id that is empty, longer than 255 characters or holds control characters. */
  VISITOR_EMPTY = 'VISITOR_EMPTY',
  VISITOR_TOO_LONG = 'VISITOR_TOO_LONG',
  VISITOR_HAS_CONTROL = 'VISITOR_HAS_CONTROL',
  /** Events (issue 28): an event name that is empty, over 120 characters; a name, key or value with control characters. */
  EVENT_NAME_EMPTY = 'EVENT_NAME_EMPTY',
  EVENT_NAME_TOO_LONG = 'EVENT_NAME_TOO_LONG',
  EVENT_TEXT_HAS_CONTROL = 'EVENT_TEXT_HAS_CONTROL',
  /** Events: properties or revenue on a hit without an event name (a pageview). */
  EVENT_MISSING = 'EVENT_MISSING',
  /** Events: more than 30 properties; a key empty, over 300 characters or repeated; a value empty or over 2,000. */
  EVENT_PROPS_TOO_MANY = 'EVENT_PROPS_TOO_MANY',
  PROP_KEY_EMPTY = 'PROP_KEY_EMPTY',
  PROP_KEY_TOO_LONG = 'PROP_KEY_TOO_LONG',
  PROP_KEY_REPEATED = 'PROP_KEY_REPEATED',
  PROP_VALUE_EMPTY = 'PROP_VALUE_EMPTY',
  PROP_VALUE_TOO_LONG = 'PROP_VALUE_TOO_LONG',
  /** Events: a property value that looks like an e-mail address (EVENT_PROPS_ALLOW_EMAIL=false, the default). */
  PROP_VALUE_EMAIL = 'PROP_VALUE_EMAIL',
  /** Revenue: an amount that is not a decimal, negative, finer than the currency's minor unit, or too large. */
  AMOUNT_NOT_DECIMAL = 'AMOUNT_NOT_DECIMAL',
  AMOUNT_NEGATIVE = 'AMOUNT_NEGATIVE',
  AMOUNT_TOO_PRECISE = 'AMOUNT_TOO_PRECISE',
  AMOUNT_TOO_LARGE = 'AMOUNT_TOO_LARGE',
  /** Revenue: a currency that is not three capital letters. */
  CURRENCY_NOT_ISO_CODE = 'CURRENCY_NOT_ISO_CODE',
}
