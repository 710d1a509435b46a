/** Command-line options of the standalone measuring scripts (ingestCpu, queryCpu, upsertCommandCost). */

/** `--name N`: a positive integer, or `fallback` when the flag is absent. */
export function intOption(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index < 0 ? fallback : Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a positive integer, got ${value}`);
  return value;
}

/** Every value given to `--name`, in order (the flag may repeat). */
export function repeatedOption(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === `--${name}` ? [process.argv[i + 1] ?? ''] : []));
}
