import type { CommandIo } from './importCommand';
import { UsageError } from './UsageError';

/**
 * Prints why an archive command failed and returns its exit code: a usage error (2) with a pointer to --help, else
 * (1) `context: message` and then what to do about it, when there is something to do.
 */
export function commandFailure(
  command: string,
  error: unknown,
  io: CommandIo,
  explain: { readonly context?: string; readonly advice?: string } = {},
): number {
  if (error instanceof UsageError) {
    io.stderr.write(`tally ${command}: ${error.message}\nRun "tally ${command} --help" for usage.\n`);
    return 2;
  }
  const context = explain.context === undefined ? '' : `${explain.context}: `;
  const advice = explain.advice === undefined ? '' : `; ${explain.advice}`;
  io.stderr.write(`tally ${command}: ${context}${(error as Error).message}${advice}\n`);
  return 1;
}
