/** The options of `tally dump`, `restore` and `migrate`: a file, `--merge`, `--to URI`, `--db NAME`, `--timeout-ms N`. */
import { DEFAULT_COMMAND_TIMEOUT_MS } from './openCommandDatabase';
import { UsageError } from './UsageError';

export interface ArchiveArgs {
  readonly help: boolean;
  readonly files: readonly string[];
  readonly merge: boolean;
  readonly to: string | undefined;
  readonly db: string | undefined;
  readonly timeoutMs: number;
}

type Flag = 'merge';
type Valued = 'to' | 'db' | 'timeout-ms';

export function parseArchiveArgs(
  args: readonly string[],
  accepted: { readonly flags: readonly Flag[]; readonly values: readonly Valued[]; readonly files: number },
): ArchiveArgs {
  const files: string[] = [];
  const values = new Map<Valued, string>();
  let merge = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--help' || arg === '-h')
      return { help: true, files, merge, to: undefined, db: undefined, timeoutMs: 0 };
    if (arg === '-' || !arg.startsWith('-')) {
      files.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if ((accepted.flags as readonly string[]).includes(name) && inline === undefined) {
      merge = true;
      continue;
    }
    if (!(accepted.values as readonly string[]).includes(name)) throw new UsageError(`unknown option ${arg}`);
    const value = inline ?? args[++i];
    if (value === undefined || value === '') throw new UsageError(`${arg} needs a value`);
    values.set(name as Valued, value);
  }
  if (files.length !== accepted.files) {
    throw new UsageError(
      accepted.files === 0
        ? `unexpected argument ${JSON.stringify(files[0])}`
        : `expected one archive file (or "-"), got ${files.length === 0 ? 'none' : files.map((f) => JSON.stringify(f)).join(' ')}`,
    );
  }
  const timeout = values.get('timeout-ms');
  const timeoutMs = timeout === undefined ? DEFAULT_COMMAND_TIMEOUT_MS : Number(timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100) {
    throw new UsageError(`--timeout-ms must be an integer of at least 100, got ${JSON.stringify(timeout)}`);
  }
  return { help: false, files, merge, to: values.get('to'), db: values.get('db'), timeoutMs };
}
