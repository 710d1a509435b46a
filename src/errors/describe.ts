/** Renders a received value for an error message: short, quoted, control characters visible. */
export function describe(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.length > 60 ? `${value.slice(0, 60)}…` : value;
    return `${JSON.stringify(shown)}${value.length > 60 ? ` (${value.length} characters)` : ''}`;
  }
  return JSON.stringify(value) ?? String(value);
}
