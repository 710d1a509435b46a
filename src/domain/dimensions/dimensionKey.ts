/**
 * Dimension values become MongoDB field names (`ref.<key>`), which may hold no `.` and no NUL, and may not start
 * with `$`. Percent-style escaping makes any string a legal field name, injectively: `%`, `.`, `$` and NUL become
 * `%25`, `%2E`, `%24`, `%00`, and a lone surrogate (which BSON's UTF-8 would turn into U+FFFD, merging values)
 * becomes `%uD800`. Every `%` of a key starts an escape, so dimensionValue reads it back exactly.
 */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters a field name may not hold
const ESCAPED = /[%.$\u0000]/g;
const ESCAPES: Readonly<Record<string, string>> = { '%': '%25', '.': '%2E', $: '%24', '\u0000': '%00' };
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function dimensionKey(value: string): string {
  // Normalised values are never empty; an empty field name is not addressable in an update path.
  if (value === '') throw new RangeError('a dimension value must not be empty');
  let key = value.replace(ESCAPED, (char) => ESCAPES[char] as string);
  if (!key.isWellFormed()) {
    key = key.replace(LONE_SURROGATE, (unit) => `%u${unit.charCodeAt(0).toString(16).toUpperCase()}`);
  }
  return key;
}

const ESCAPE = /%(?:u([0-9A-F]{4})|([0-9A-F]{2}))/g;

/** The value a key was made from. Keys dimensionKey cannot produce (a `%` not starting an escape) are refused. */
export function dimensionValue(key: string): string {
  const value = key.replace(ESCAPE, (_, unit: string | undefined, byte: string | undefined) =>
    String.fromCharCode(parseInt(unit ?? (byte as string), 16)),
  );
  if (dimensionKey(value) !== key) throw new RangeError(`not a dimension key: ${JSON.stringify(key)}`);
  return value;
}
