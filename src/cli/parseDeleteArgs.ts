/** The options of `tally delete`: `--site S`, `--page P`, `--timeout-ms N`, `--help`; site and page as the API takes them. */
import { parsePage } from '../domain/parsePage';
import { parseSite } from '../domain/parseSite';
import { BadUserInputError } from '../errors/BadUserInputError';
import type { DeletionTarget } from '../store/deletionRequests';
import { DEFAULT_COMMAND_TIMEOUT_MS } from './openCommandDatabase';
import { UsageError } from './UsageError';

export type DeleteArgs =
  { readonly help: true } | { readonly help: false; readonly target: DeletionTarget; readonly timeoutMs: number };

const VALUED = ['site', 'page', 'timeout-ms'] as const;
type Valued = (typeof VALUED)[number];

export function parseDeleteArgs(args: readonly string[]): DeleteArgs {
  const values = new Map<Valued, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--help' || arg === '-h') return { help: true };
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument ${JSON.stringify(arg)}`);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (!(VALUED as readonly string[]).includes(name)) throw new UsageError(`unknown option ${arg}`);
    const value = inline ?? args[++i];
    if (value === undefined) throw new UsageError(`${arg} needs a value`);
    if (values.has(name as Valued)) throw new UsageError(`${arg} is given twice`);
    values.set(name as Valued, value);
  }
  const site = values.get('site');
  if (site === undefined) throw new UsageError('--site is required');
  const page = values.get('page');
  const timeout = values.get('timeout-ms');
  const timeoutMs = timeout === undefined ? DEFAULT_COMMAND_TIMEOUT_MS : Number(timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100) {
    throw new UsageError(`--timeout-ms must be an integer of at least 100, got ${JSON.stringify(timeout)}`);
  }
  try {
    const target = { site: parseSite(site), ...(page === undefined ? {} : { page: parsePage(page) }) };
    return { help: false, target, timeoutMs };
  } catch (error) {
    if (error instanceof BadUserInputError) throw new UsageError(error.message);
    throw error;
  }
}
