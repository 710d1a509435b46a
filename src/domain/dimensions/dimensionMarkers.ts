/**
 * The values that stand for "no value", each explicit so breakdowns add up. Parentheses cannot occur in a host
 * name, a country code, a device class or a parser's names, and are Google Analytics' convention for the same
 * markers (`(direct)`, `(none)`), which analytics users already read.
 */

/** Referrer source when the hit came without a referrer (typed address, bookmark, app, privacy settings). */
export const DIRECT = '(direct)';
/** Referrer source when the referrer is the site itself: navigation inside the site is not a source. */
export const INTERNAL = '(internal)';
/** A UTM dimension whose parameter the page URL does not carry. */
export const NONE = '(none)';
/** Something was given but says nothing usable: a garbage referrer, an unrecognised user agent, an unmapped IP. */
export const UNKNOWN = '(unknown)';
/**
 * Values a document no longer admits: once it holds DIMENSION_MAX_VALUES keys of a dimension, further new values
 * count here, so a breakdown still adds up to its hits while the document stays bounded.
 */
export const OTHER = '(other)';
