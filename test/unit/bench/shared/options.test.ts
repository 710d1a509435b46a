/** The one option parser of bench/: typed values with defaults, and mistakes that name the flag and what it got. */
import { parseOptions, usageOf } from '../../../../bench/shared/options';

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
