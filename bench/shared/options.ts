/**
 * The one command-line parser of bench/: `npm run bench` and every probe declare their flags here and get one typed
 * object back. Anything undeclared is refused with the list of what is accepted; a bad value names the flag, what
 * it needs and what it got. `--help` prints the usage (every flag with its default) and exits.
 */
import path from 'node:path';

/** A boolean switch: `--quick`. */
export interface FlagSpec {
  readonly kind: 'flag';
}

/** `--rounds 7`: a positive integer (or 0, where `zero` allows it). */
export interface IntegerSpec {
  readonly kind: 'integer';
  readonly default: number;
  readonly zero?: boolean;
}

/** `--pages 1000,100000`: positive integers separated by commas. */
export interface IntegersSpec {
  readonly kind: 'integers';
  readonly default: readonly number[];
}

/** `--results-dir DIR` (`string`, at most once) or `--only SECTION` (`strings`, as often as wanted, in order). */
export interface TextSpec {
  readonly kind: 'string' | 'strings';
  /** The placeholder in the usage line (`DIR`). */
  readonly value: string;
  /** What a mistake says the flag needs (`the path of a FerretDB executable`); default "a value (DIR)". */
  readonly needs?: string;
  /** Values may start with `--` (`--node-arg --cpu-prof`); otherwise such a value is taken for a forgotten one. */
  readonly dashValue?: boolean;
}

/** `--style combined`: one of a fixed list. */
export interface ChoiceSpec<C extends string = string> {
  readonly kind: 'choice';
  readonly choices: readonly C[];
  readonly default: C;
}

/** A required argument without a flag (`FILE`), taken in the order the specs list them. */
export interface PositionalSpec {
  readonly kind: 'positional';
  readonly value: string;
  readonly needs: string;
}

export type OptionSpec = FlagSpec | IntegerSpec | IntegersSpec | TextSpec | ChoiceSpec | PositionalSpec;
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type ValueOf<S extends OptionSpec> = S extends FlagSpec
  ? boolean
  : S extends IntegerSpec
    ? number
    : S extends IntegersSpec
      ? number[]
      : S extends { kind: 'strings' }
        ? string[]
        : S extends { kind: 'string' }
          ? string | undefined
          : S extends ChoiceSpec<infer C>
            ? C
            : S extends PositionalSpec
              ? string
              : never;

export type ParsedOptions<S extends OptionSpecs> = { [K in keyof S]: ValueOf<S[K]> };

/** The accepted arguments, as a mistake lists them: `--quick, --rounds N, --only SECTION, FILE`. */
export function usageOf(specs: OptionSpecs): string {
  return Object.entries(specs)
    .map(([name, spec]) => {
      switch (spec.kind) {
        case 'flag':
          return `--${name}`;
        case 'integer':
          return `--${name} N`;
        case 'integers':
          return `--${name} N,M`;
        case 'string':
        case 'strings':
          return `--${name} ${spec.value}`;
        case 'choice':
          return `--${name} ${spec.choices.join('|')}`;
        case 'positional':
          return spec.value;
      }
    })
    .join(', ');
}

/** Where `--help` goes; tests pass their own, the command line prints and exits 0. */
export interface HelpOutput {
  /** The command as the usage line names it (default: `node <script>` relative to the working directory). */
  readonly program?: string;
  readonly print?: (text: string) => void;
  readonly exit?: () => never;
}

/** What `--help` prints: the usage line, then one line per argument with its default or what it needs. */
export function helpOf(specs: OptionSpecs, program: string): string {
  const usage = Object.entries(specs).map(([name, spec]) => {
    const one = usageOf({ [name]: spec });
    return spec.kind === 'positional' ? one : `[${one}]`;
  });
  const lines = [`usage: ${[program, ...usage].join(' ')}`];
  const rows = Object.entries(specs).map(([name, spec]): [string, string] => {
    const one = usageOf({ [name]: spec });
    switch (spec.kind) {
      case 'flag':
        return [one, 'off unless given'];
      case 'integer':
        return [one, `default ${spec.default}`];
      case 'integers':
        return [one, `default ${spec.default.join(',')}`];
      case 'choice':
        return [one, `default ${spec.default}`];
      case 'string':
        return [one, spec.needs ?? 'optional'];
      case 'strings':
        return [one, `${spec.needs ?? 'optional'}; may be repeated`];
      case 'positional':
        return [one, `required: ${spec.needs}`];
    }
  });
  rows.push(['--help', 'print this and exit']);
  const width = Math.max(...rows.map(([arg]) => arg.length));
  for (const [arg, text] of rows) lines.push(`  ${arg.padEnd(width)}  ${text}`);
  return lines.join('\n');
}

function defaultProgram(): string {
  const script = process.argv[1];
  return script === undefined ? 'node' : `node ${path.relative(process.cwd(), script) || script}`;
}

function positiveInteger(text: string): number | undefined {
  return /^[1-9][0-9]*$/.test(text) ? Number(text) : undefined;
}

export function parseOptions<const S extends OptionSpecs>(
  argv: readonly string[],
  specs: S,
  help: HelpOutput = {},
): ParsedOptions<S> {
  // `--help` anywhere a flag may stand (not as another flag's value) wins over every mistake.
  if (wantsHelp(argv, specs)) {
    (help.print ?? ((text: string) => console.log(text)))(helpOf(specs, help.program ?? defaultProgram()));
    (help.exit ?? ((): never => process.exit(0)))();
  }
  const values: Record<string, unknown> = {};
  const given = new Set<string>();
  const positionals = Object.keys(specs).filter((name) => specs[name]?.kind === 'positional');
  const refuse = (arg: string): never => {
    throw new Error(`unknown argument ${JSON.stringify(arg)}; expected ${usageOf(specs) || 'no arguments'}`);
  };
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.kind === 'flag') values[name] = false;
    else if (spec.kind === 'integer' || spec.kind === 'choice') values[name] = spec.default;
    else if (spec.kind === 'integers') values[name] = [...spec.default];
    else if (spec.kind === 'strings') values[name] = [];
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      const name = positionals.shift();
      if (name === undefined) refuse(arg);
      values[name as string] = arg;
      continue;
    }
    const name = arg.slice(2);
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (spec === undefined || spec.kind === 'positional') return refuse(arg);
    if (spec.kind !== 'strings') {
      if (given.has(name)) throw new Error(`${arg} may be given once, got it twice`);
      given.add(name);
    }
    if (spec.kind === 'flag') {
      values[name] = true;
      continue;
    }
    const raw = argv[++i];
    const bad = (needs: string): never => {
      throw new Error(`${arg} needs ${needs}, got ${JSON.stringify(raw ?? '')}`);
    };
    switch (spec.kind) {
      case 'integer':
        values[name] =
          spec.zero === true && raw === '0'
            ? 0
            : (positiveInteger(raw ?? '') ?? bad(spec.zero === true ? 'a whole number' : 'a positive integer'));
        break;
      case 'integers': {
        const list = (raw ?? '').split(',').map(positiveInteger);
        if (list.some((n) => n === undefined)) bad('positive integers separated by commas');
        values[name] = list;
        break;
      }
      case 'choice':
        if (raw === undefined || !spec.choices.includes(raw)) bad(`one of ${spec.choices.join(', ')}`);
        values[name] = raw;
        break;
      case 'string':
      case 'strings': {
        if (raw === undefined || raw === '' || (raw.startsWith('--') && !spec.dashValue))
          bad(spec.needs ?? `a value (${spec.value})`);
        values[name] = spec.kind === 'string' ? raw : [...(values[name] as string[]), raw];
        break;
      }
    }
  }
  const missing = positionals[0];
  if (missing !== undefined) {
    const spec = specs[missing] as PositionalSpec;
    throw new Error(`missing ${spec.value}: ${spec.needs}; expected ${usageOf(specs)}`);
  }
  return values as ParsedOptions<S>;
}

/** Whether `--help` stands where a flag may, and the specs do not declare a `help` of their own. */
function wantsHelp(argv: readonly string[], specs: OptionSpecs): boolean {
  if (Object.hasOwn(specs, 'help')) return false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help') return true;
    const spec = arg.startsWith('--') && Object.hasOwn(specs, arg.slice(2)) ? specs[arg.slice(2)] : undefined;
    // Skip a flag's value, so `--only --help` is a (refused) value, never a request for help.
    if (spec !== undefined && spec.kind !== 'flag' && spec.kind !== 'positional') i++;
  }
  return false;
}
