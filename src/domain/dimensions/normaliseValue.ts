/**
 * Bounds a derived value: well-formed Unicode, control characters and whitespace runs as one space, trimmed,
 * cut to `maxLength` code points (never inside a surrogate pair). Nothing left: `empty`. Values that third
 * parties chose (referrers, query parameters, user agents) go through here; none of them is ever refused.
 */
// eslint-disable-next-line no-control-regex
const SPACES_AND_CONTROLS = /[\s\u0000-\u001f\u007f-\u009f]+/gu;

export function normaliseValue(text: string, maxLength: number, empty: string): string {
  let value = text.isWellFormed() ? text : text.toWellFormed();
  value = value.replace(SPACES_AND_CONTROLS, ' ').trim();
  if (value.length > maxLength) value = truncateCodePoints(value, maxLength).trimEnd();
  return value === '' ? empty : value;
}

/** The first `maxLength` code points of `text`. */
export function truncateCodePoints(text: string, maxLength: number): string {
  let end = 0;
  for (let points = 0; points < maxLength && end < text.length; points += 1) {
    const code = text.charCodeAt(end);
    end += code >= 0xd800 && code <= 0xdbff && end + 1 < text.length ? 2 : 1;
  }
  return text.slice(0, end);
}
