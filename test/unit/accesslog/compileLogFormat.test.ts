import { compileLogFormat, LogFormatError } from '../../../src/accesslog/compileLogFormat';
import type { LogFields } from '../../../src/accesslog/compileLogFormat';

const UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0';

function fields(format: string, line: string): Partial<LogFields> {
  const result = compileLogFormat(format).match(line);
  if (!result.ok) throw new Error(`expected a match, got: ${result.reason}`);
  return Object.fromEntries(Object.entries(result.fields).filter(([, v]) => v !== undefined));
}

describe('compileLogFormat', () => {
  it.each([
    [
      'combined',
      `203.0.113.7 - - [10/Oct/2000:13:55:36 -0700] "GET /a?b=1 HTTP/1.1" 200 2326 "http://x/" "${UA}"`,
      {
        at: Date.UTC(2000, 9, 10, 20, 55, 36),
        request: 'GET /a?b=1 HTTP/1.1',
        status: 200,
        userAgent: UA,
        referrer: 'http://x/',
        clientAddress: '203.0.113.7',
      },
    ],
    [
      'combined',
      `203.0.113.7 - frank [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 304 0 "-" "${UA}" "198.51.100.1" extra`,
      {
        at: Date.UTC(2000, 9, 10, 20, 55, 36),
        request: 'GET / HTTP/1.1',
        status: 304,
        userAgent: UA,
        clientAddress: '203.0.113.7',
      },
    ],
    [
      'combined',
      '::1 - - [10/Oct/2000:13:55:36 +0000] "GET /q\\"uote HTTP/1.1" 200 1 "-" "say \\"hi\\""',
      {
        at: Date.UTC(2000, 9, 10, 13, 55, 36),
        request: 'GET /q\\"uote HTTP/1.1',
        status: 200,
        userAgent: 'say \\"hi\\"',
        clientAddress: '::1',
      },
    ],
    [
      'common',
      '203.0.113.7 - - [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326',
      {
        at: Date.UTC(2000, 9, 10, 20, 55, 36),
        request: 'GET /apache_pb.gif HTTP/1.0',
        status: 200,
        clientAddress: '203.0.113.7',
      },
    ],
    [
      '$host $remote_addr [$time_local] "$request" $status "$http_user_agent"',
      `Example.com:8080 203.0.113.7 [10/Oct/2000:13:55:36 +0100] "GET / HTTP/2.0" 200 "${UA}"`,
      {
        at: Date.UTC(2000, 9, 10, 12, 55, 36),
        host: 'Example.com:8080',
        request: 'GET / HTTP/2.0',
        status: 200,
        userAgent: UA,
        clientAddress: '203.0.113.7',
      },
    ],
    [
      '$remote_addr [$time_local] "$request" "$http_referer" "$http_x_forwarded_for"',
      '10.0.0.2 [10/Oct/2000:13:55:36 +0000] "GET / HTTP/1.1" "https://www.google.com/" "198.51.100.9, 10.0.0.1"',
      {
        at: Date.UTC(2000, 9, 10, 13, 55, 36),
        request: 'GET / HTTP/1.1',
        referrer: 'https://www.google.com/',
        clientAddress: '198.51.100.9',
      },
    ],
    [
      '"$http_x_forwarded_for" $remote_addr [$time_local] "$request"',
      '"2001:db8::9" 10.0.0.2 [10/Oct/2000:13:55:36 +0000] "GET / HTTP/1.1"',
      { at: Date.UTC(2000, 9, 10, 13, 55, 36), request: 'GET / HTTP/1.1', clientAddress: '2001:db8::9' },
    ],
    [
      '$remote_addr [$time_local] "$request" "$http_x_forwarded_for"',
      '10.0.0.2 [10/Oct/2000:13:55:36 +0000] "GET / HTTP/1.1" "-"',
      { at: Date.UTC(2000, 9, 10, 13, 55, 36), request: 'GET / HTTP/1.1', clientAddress: '10.0.0.2' },
    ],
    [
      '$remote_addr [$time_local] "$request" "$http_referer"',
      '- [10/Oct/2000:13:55:36 +0000] "GET / HTTP/1.1" ""',
      { at: Date.UTC(2000, 9, 10, 13, 55, 36), request: 'GET / HTTP/1.1' },
    ],
    [
      '${time_iso8601}|$http_host|$request_method|$request_uri|$status',
      '2026-01-01T00:30:00+01:00|example.com|GET|/docs?x=1|200',
      { at: Date.UTC(2025, 11, 31, 23, 30), host: 'example.com', method: 'GET', uri: '/docs?x=1', status: 200 },
    ],
    [
      '$msec $server_name $request_method $uri $args $status',
      '1700000000.123 example.com GET /search q=tally 200',
      { at: 1_700_000_000_123, host: 'example.com', method: 'GET', uri: '/search', args: 'q=tally', status: 200 },
    ],
    [
      '$msec $server_name $request_method $uri $args $status',
      '1700000000.123 example.com GET /search - 200',
      { at: 1_700_000_000_123, host: 'example.com', method: 'GET', uri: '/search', status: 200 },
    ],
  ])('%s reads its line', (format, line, expected) => {
    expect(fields(format, line)).toEqual(expected);
  });

  it.each([
    [
      'combined',
      '203.0.113.7 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200 2326 "-" "trunc',
      'expected "\\"" after $http_user_agent',
    ],
    ['combined', '203.0.113.7 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1', 'expected "\\" " after $request'],
    [
      'combined',
      '203.0.113.7 - - [32/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "x"',
      'bad $time_local "32/Oct/2000:13:55:36 -0700"',
    ],
    ['combined', '203.0.113.7 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" 2000 1 "-" "x"', 'bad $status "2000"'],
    ['combined', '203.0.113.7 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.1" abc 1 "-" "x"', 'bad $status "abc"'],
    ['combined', '', 'expected " - " after $remote_addr'],
    ['[$time_local] $request', 'x [10/Oct/2000:13:55:36 -0700] GET /', 'expected the line to start with "["'],
  ])('%s refuses %j: %s', (format, line, reason) => {
    expect(compileLogFormat(format).match(line)).toEqual({ ok: false, reason });
  });

  it.each([
    [
      '$remote_addr$request [$time_local]',
      'log format variables must be separated by text, got $remote_addr directly followed by $request',
    ],
    [
      '$remote_addr "$request"',
      'log format must contain $time_local, $time_iso8601 or $msec, got "$remote_addr \\"$request\\""',
    ],
    ['[$time_local] $status', 'log format must contain $request, $request_uri or $uri, got "[$time_local] $status"'],
  ])('refuses the format %s', (format, message) => {
    expect(() => compileLogFormat(format)).toThrow(new LogFormatError(message));
  });

  it('says which fields a format provides', () => {
    expect([...compileLogFormat('common').provides].sort()).toEqual([
      'args',
      'at',
      'clientAddress',
      'method',
      'status',
      'uri',
    ]);
    expect([...compileLogFormat('combined').provides].sort()).toEqual([
      'args',
      'at',
      'clientAddress',
      'method',
      'referrer',
      'status',
      'uri',
      'userAgent',
    ]);
    expect(compileLogFormat('[$time_local] "$request" $http_x_forwarded_for').provides.has('clientAddress')).toBe(true);
    expect(compileLogFormat('$host [$time_local] "$request"').provides.has('host')).toBe(true);
  });
});
