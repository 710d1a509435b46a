/**
 * A register's field name inside a stored sketch: its number in decimal ("0" … "8191"). The sketch is an embedded
 * document, never an array, so numeric names are plain keys; `$bit` creates missing ones with an upsert.
 */
import { MAX_PRECISION } from './registerLayout';

const REGISTER_LIMIT = 2 ** MAX_PRECISION;
const MAX_KEY_LENGTH = String(REGISTER_LIMIT - 1).length;
const ZERO = 48;

export function registerKey(register: number): string {
  return String(register);
}

/** The register a stored field name names, or undefined unless registerKey writes it for some register. */
export function parseRegisterKey(key: string): number | undefined {
  const length = key.length;
  // Reading a saturated 90-day dashboard parses over a million keys: a digit loop, not a regex and Number().
  if (length === 0 || length > MAX_KEY_LENGTH || (length > 1 && key.charCodeAt(0) === ZERO)) return undefined;
  let register = 0;
  for (let i = 0; i < length; i++) {
    const digit = key.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return undefined;
    register = register * 10 + digit;
  }
  return register < REGISTER_LIMIT ? register : undefined;
}
