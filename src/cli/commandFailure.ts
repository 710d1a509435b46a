import type { CommandIo } from './importCommand';
import { UsageError } from './UsageError';

/** Prints a usage error (exit 2) or another failure (exit 1) of an archive command. */
export function commandFailure(command: string, error: unknown, io: CommandIo, context?: string): number {
  if (error instanceof UsageError) {
    io.stderr.write(`tally ${command}: ${error.message}\nRun "tally ${command} --help" for usage.\n`);
    return 2;
  }
  io.stderr.write(`tally ${command}: ${context ? `${context}: ` : ''}${(error as Error).message}\n`);
  return 1;
}
