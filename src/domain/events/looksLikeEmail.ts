/**
 * Whether a property value looks like an e-mail address (something@host.tld anywhere in it): the personal datum
 * most often sent by mistake, refused unless EVENT_PROPS_ALLOW_EMAIL=true. A heuristic, not a validator.
 */
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@.]{2,}/;

export function looksLikeEmail(value: string): boolean {
  return value.includes('@') && EMAIL.test(value);
}
