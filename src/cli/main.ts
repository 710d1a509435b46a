#!/usr/bin/env node
/**
 * The `tally` command (package.json `bin`): `tally <command> [options]`. Each command lives in
 * `src/cli/<name>Command.ts` as `run<Name>Command(args): Promise<number>`, returning the exit code; add it
 * to COMMANDS to wire it in.
 */
import { runDeleteCommand } from './deleteCommand';
import { runDumpCommand } from './dumpCommand';
import { runImportCommand } from './importCommand';
import type { CommandIo } from './importCommand';
import { runKeyCommand } from './keyCommand';
import { runMigrateCommand } from './migrateCommand';
import { runRestoreCommand } from './restoreCommand';
import { readVersion } from '../readVersion';

interface Command {
  readonly summary: string;
  readonly run: (args: string[], signal: AbortSignal) => Promise<number>;
}

const processIo = (signal: AbortSignal): CommandIo => ({
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal,
});

const COMMANDS: Readonly<Record<string, Command>> = {
  import: {
    summary: 'import nginx/Apache access logs (plain, .gz or stdin) as page hits',
    run: (args, signal) => runImportCommand(args, processIo(signal)),
  },
  dump: {
    summary: 'write every collection tally owns into one archive file (a backup)',
    run: (args, signal) => runDumpCommand(args, processIo(signal)),
  },
  restore: {
    summary: 'restore an archive into an empty database, or --merge it into one with data',
    run: (args, signal) => runRestoreCommand(args, processIo(signal)),
  },
  migrate: {
    summary: 'copy every collection into another database (--to URI), streamed',
    run: (args, signal) => runMigrateCommand(args, processIo(signal)),
  },
  delete: {
    summary: "delete a site's (or one page's) stored counts (--site S [--page P])",
    run: (args, signal) => runDeleteCommand(args, processIo(signal)),
  },
  key: {
    summary: 'make an API key (prints the secret once and its keys-file entry)',
    run: (args) => runKeyCommand(args),
  },
};

const USAGE = `Usage: tally <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(10)} ${command.summary}`)
  .join('\n')}

Run "tally <command> --help" for a command's options. The server itself starts with "npm start".
`;

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${readVersion()}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    process.stderr.write(
      `tally: unknown command ${JSON.stringify(name)}; expected one of: ${Object.keys(COMMANDS).join(', ')}\n`,
    );
    return 2;
  }
  // First Ctrl-C: stop reading and finish what is in flight; a second one leaves at once.
  const interrupt = new AbortController();
  process.on('SIGINT', () => {
    if (interrupt.signal.aborted) process.exit(130);
    process.stderr.write('\ntally: stopping after the batches in flight (Ctrl-C again to quit now)\n');
    interrupt.abort();
  });
  return command.run(args, interrupt.signal);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Nothing should be left running, but a stray handle must not keep a finished import alive.
    setTimeout(() => process.exit(code), 1_000).unref();
  },
  (error: unknown) => {
    process.stderr.write(`tally: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
