import { parseImportArgs } from '../../../src/cli/parseImportArgs';
import { UsageError } from '../../../src/cli/UsageError';

const parse = (args: string[], env: Record<string, string> = {}, tty = false) => parseImportArgs(args, env, tty);

describe('parseImportArgs', () => {
  it('defaults to the local GraphQL endpoint, combined-then-common, every filter on, stdin', () => {
    const parsed = parse(['--site', 'example.com']);
    if (parsed.help) throw new Error('unexpected help');
    expect(parsed.options).toMatchObject({
      files: ['-'],
      formatName: 'combined',
      site: 'example.com',
      target: { kind: 'graphql', url: 'http://127.0.0.1:4000/graphql', apiKey: undefined },
      keepQuery: false,
      visitors: true,
      dimensions: true,
      batchLines: 5_000,
      concurrency: 4,
    });
    expect(parsed.options.formats).toHaveLength(2);
    expect([...parsed.options.filters]).toEqual(['status', 'method', 'asset', 'bot']);
  });

  it('turns visitors and dimension inputs off with --no-visitors and --no-dimensions', () => {
    expect(parse(['--site', 's', '--no-visitors', 'f'])).toMatchObject({
      options: { visitors: false, dimensions: true },
    });
    expect(parse(['--site', 's', '--no-dimensions', 'f'])).toMatchObject({
      options: { visitors: true, dimensions: false },
    });
  });

  it('reads the API key from TALLY_API_KEY unless --api-key is given', () => {
    expect(parse(['--site', 's', 'f'], { TALLY_API_KEY: 'env' })).toMatchObject({
      options: { target: { apiKey: 'env' } },
    });
    expect(parse(['--site', 's', '--api-key', 'flag', 'f'], { TALLY_API_KEY: 'env' })).toMatchObject({
      options: { target: { apiKey: 'flag' } },
    });
  });

  it('switches filters off one by one and takes other asset extensions', () => {
    const parsed = parse([
      '--site',
      's',
      '--no-bot-filter',
      '--no-status-filter',
      '--asset-extensions',
      '.CSS, js',
      'f',
    ]);
    if (parsed.help) throw new Error('unexpected help');
    expect([...parsed.options.filters]).toEqual(['method', 'asset']);
    expect([...parsed.options.assetExtensions]).toEqual(['css', 'js']);
  });

  it('takes the site from the format when it logs the virtual host', () => {
    expect(parse(['--format', '$host [$time_local] "$request" $status', 'f'])).toMatchObject({
      options: { site: undefined, formatName: '$host [$time_local] "$request" $status' },
    });
  });

  it('maps virtual hosts to sites with --map-host', () => {
    const parsed = parse([
      '--format',
      '$host [$time_local] "$request"',
      '--map-host',
      'WWW.example.com=example.com',
      'f',
    ]);
    if (parsed.help) throw new Error('unexpected help');
    expect([...parsed.options.hostSites]).toEqual([['www.example.com', 'example.com']]);
  });

  it('targets the database with --mongodb-uri and --db, and nothing with --dry-run', () => {
    expect(parse(['--site', 's', '--mongodb-uri', 'mongodb://h:27017', '--db', 'x', 'f'])).toMatchObject({
      options: { target: { kind: 'mongodb', uri: 'mongodb://h:27017', db: 'x' } },
    });
    expect(parse(['--site', 's', '--dry-run', 'f'])).toMatchObject({ options: { target: { kind: 'dry-run' } } });
  });

  it.each([
    [[], "expected --site, or a --format with $host, $http_host or $server_name to name each line's site; got neither"],
    [['--site', 'a/b', 'f'], '--site must not contain "/", got "a/b"'],
    [['--site', 's'], 'expected log files to import (or "-" / a pipe for stdin), got none', true],
    [['--site', 's', '-', '-'], 'stdin ("-") can be read only once'],
    [
      ['--site', 's', '--format', '[$time_local] $status', 'f'],
      '--format must be combined, common or an nginx log_format: log format must contain $request, $request_uri or $uri, got "[$time_local] $status"',
    ],
    [
      ['--site', 's', '--url', 'ftp://x', 'f'],
      '--url must be an http(s) URL such as http://127.0.0.1:4000/graphql, got "ftp://x"',
    ],
    [
      ['--site', 's', '--mongodb-uri', 'postgres://u:secret@h', 'f'],
      '--mongodb-uri must start with mongodb:// or mongodb+srv://, got postgres://…',
    ],
    [
      ['--site', 's', '--url', 'http://u:secret@x/graphql', 'f'],
      '--url must not contain credentials; pass the API key with --api-key or TALLY_API_KEY',
    ],
    [['--site', 's', '--url', 'http://x', '--dry-run', 'f'], 'use one of --url, --mongodb-uri and --dry-run'],
    [['--site', 's', '--db', 'x', 'f'], '--db goes with --mongodb-uri'],
    [['--site', 's', '--batch-lines', '0', 'f'], '--batch-lines must be an integer from 1 to 100000, got "0"'],
    [['--site', 's', '--concurrency', 'many', 'f'], '--concurrency must be an integer from 1 to 64, got "many"'],
    [['--site', 's', '--progress', 'fancy', 'f'], '--progress must be auto, bar, plain or none, got "fancy"'],
    [['--site', 's', '--frobnicate', 'f'], "Unknown option '--frobnicate'"],
    [['--site', 's', '--map-host', 'a=b', 'f'], '--map-host goes with sites named by the log, not with --site'],
    [
      ['--format', '$host [$time_local] "$request"', '--map-host', 'www.example.com', 'f'],
      '--map-host must be HOST=SITE, e.g. www.example.com=example.com, got "www.example.com"',
    ],
    [
      ['--format', '$host [$time_local] "$request"', '--map-host', 'a=b c', 'f'],
      '--map-host site must not contain whitespace or control characters, got "b c"',
    ],
  ])('refuses %j: %s', (args, message, tty = false) => {
    expect(() => parse(args as string[], {}, tty as boolean)).toThrow(new UsageError(message as string));
  });

  it('answers --help', () => {
    expect(parse(['--help'])).toEqual({ help: true });
  });
});
