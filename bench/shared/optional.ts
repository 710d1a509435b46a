/** `{ key: value }` when the value is known, `{}` otherwise: optional result fields without `undefined`s. */
export function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
