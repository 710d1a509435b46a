/**
 * Renders a received value for an error message: short, quoted, control characters visible. Never longer
 * than about 80 characters, whatever came in (a 7 MB array must not become a 7 MB error).
 */
const MAX_SHOWN = 60;

export function describe(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
    return `${JSON.stringify(shown)}${value.length > MAX_SHOWN ? ` (${value.length} characters)` : ''}`;
  }
  if (Array.isArray(value)) return `a list of ${value.length} items`;
  if (value !== null && typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}
