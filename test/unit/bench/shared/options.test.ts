/** The one option parser of bench/: typed values with defaults, and mistakes that name the flag and what it got. */
import { helpOf, parseOptions, usageOf } from '../../../../bench/shared/options';

const SPECS = {
  file: { kind: 'positional', value: 'FILE', needs: 'the file to write' },
  quick: { kind: 'flag' },
  rounds: { kind: 'integer', default: 7 },
  pages: { kind: 'integers', default: [1_000, 100_000] },
  baseline: { kind: 'string', value: 'DIR' },
  only: { kind: 'strings', value: 'NAME' },
  'node-arg': { kind: 'strings', value: 'ARG', dashValue: true },
  style: { kind: 'choice', choices: ['combined', 'common'], default: 'combined' },
} as const;

const DEFAULTS = {
  file: 'out.log',
  quick: false,
  rounds: 7,
  pages: [1_000, 100_000],
  baseline: undefined,
  only: [],
  'node-arg': [],
  style: 'combined',
};

describe('parseOptions', () => {
  it.each([
    [['out.log'], {}],
    [['--quick', 'out.log'], { quick: true }],
    [['out.log', '--rounds', '3', '--pages', '10,20,30'], { rounds: 3, pages: [10, 20, 30] }],
    [['out.log', '--baseline', '../old', '--style', 'common'], { baseline: '../old', style: 'common' }],
    [['out.log', '--only', 'a', '--only', 'b'], { only: ['a', 'b'] }],
    [['out.log', '--node-arg', '--cpu-prof', '--node-arg', '--cpu-prof-dir=/tmp'], {}],
  ])('parses %j', (argv, changed) => {
    const expected =
      argv[1] === '--node-arg' ? { ...DEFAULTS, 'node-arg': ['--cpu-prof', '--cpu-prof-dir=/tmp'] } : DEFAULTS;
    expect(parseOptions(argv, SPECS)).toEqual({ ...expected, ...changed });
  });

  it.each([
    [['out.log', '--fast'], 'unknown argument "--fast"; expected FILE, --quick, --rounds N, --pages N,M'],
    [['out.log', 'extra'], 'unknown argument "extra"; expected FILE'],
    [['--quick'], 'missing FILE: the file to write; expected FILE, --quick'],
    [['out.log', '--rounds'], '--rounds needs a positive integer, got ""'],
    [['out.log', '--rounds', '0'], '--rounds needs a positive integer, got "0"'],
    [['out.log', '--rounds', '2.5'], '--rounds needs a positive integer, got "2.5"'],
    [['out.log', '--rounds', '3', '--rounds', '4'], '--rounds may be given once, got it twice'],
    [['out.log', '--pages', '10,x'], '--pages needs positive integers separated by commas, got "10,x"'],
    [['out.log', '--baseline', '--quick'], '--baseline needs a value (DIR), got "--quick"'],
    [['out.log', '--only', ''], '--only needs a value (NAME), got ""'],
    [['out.log', '--style', 'json'], '--style needs one of combined, common, got "json"'],
    [['out.log', '--toString'], 'unknown argument "--toString"'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseOptions(argv, SPECS)).toThrow(message);
  });

  it('takes 0 for an integer that allows it, and nothing else below 1', () => {
    const specs = { percent: { kind: 'integer', default: 10, zero: true } } as const;
    expect(parseOptions(['--percent', '0'], specs)).toEqual({ percent: 0 });
    expect(parseOptions(['--percent', '25'], specs)).toEqual({ percent: 25 });
    expect(() => parseOptions(['--percent', '-1'], specs)).toThrow('--percent needs a whole number, got "-1"');
    expect(() => parseOptions(['--percent', '00'], specs)).toThrow('--percent needs a whole number, got "00"');
  });

  it('gives probes without options an empty object and refuses any argument', () => {
    expect(parseOptions([], {})).toEqual({});
    expect(() => parseOptions(['--rounds', '3'], {})).toThrow('unknown argument "--rounds"; expected no arguments');
  });
});

describe('usageOf', () => {
  it('lists every argument with its placeholder, in the order declared', () => {
    expect(usageOf(SPECS)).toBe(
      'FILE, --quick, --rounds N, --pages N,M, --baseline DIR, --only NAME, --node-arg ARG, --style combined|common',
    );
  });
});

describe('--help', () => {
  /** Runs parseOptions with `argv` and returns what `--help` printed, or undefined when it parsed normally. */
  function helpFor(argv: string[], specs: Parameters<typeof parseOptions>[1] = SPECS): string | undefined {
    let printed: string | undefined;
    const exit = (): never => {
      throw new Error('exited');
    };
    try {
      parseOptions(argv, specs, { program: 'node probe.js', print: (text) => (printed = text), exit });
    } catch (error) {
      if ((error as Error).message !== 'exited') throw error;
    }
    return printed;
  }

  it.each([[['--help']], [['out.log', '--help']], [['--fast', '--help']], [['--rounds', 'x', '--help']]])(
    'prints the usage and exits for %j, before any mistake is refused',
    (argv) => {
      expect(helpFor(argv)).toBe(helpOf(SPECS, 'node probe.js'));
    },
  );

  it('lists every argument with its default or what it needs, and --help itself', () => {
    expect(helpOf(SPECS, 'node probe.js')).toBe(
      [
        'usage: node probe.js FILE [--quick] [--rounds N] [--pages N,M] [--baseline DIR] [--only NAME] [--node-arg ARG] [--style combined|common]',
        '  FILE                     required: the file to write',
        '  --quick                  off unless given',
        '  --rounds N               default 7',
        '  --pages N,M              default 1000,100000',
        '  --baseline DIR           optional',
        '  --only NAME              optional; may be repeated',
        '  --node-arg ARG           optional; may be repeated',
        '  --style combined|common  default combined',
        '  --help                   print this and exit',
      ].join('\n'),
    );
  });

  it('takes --help as the value of a flag that accepts dashes, and refuses it as any other value', () => {
    expect(helpFor(['out.log', '--node-arg', '--help'])).toBeUndefined();
    expect(parseOptions(['out.log', '--node-arg', '--help'], SPECS)['node-arg']).toEqual(['--help']);
    expect(() => helpFor(['out.log', '--only', '--help'])).toThrow('--only needs a value (NAME), got "--help"');
  });

  it('gives probes without options a usage line too', () => {
    expect(helpFor(['--help'], {})).toBe('usage: node probe.js\n  --help  print this and exit');
  });
});
