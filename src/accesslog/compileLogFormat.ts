/**
 * Compiles an nginx `log_format` string once into a matcher that walks a line with indexOf from one literal
 * to the next: no regex and no allocation for the fields tally ignores. Quoted fields skip escaped quotes
 * (Apache writes `\"`), and text after the last literal is allowed, so `combined` also reads
 * combined-plus-extras lines. Syntax: https://nginx.org/en/docs/http/ngx_http_log_module.html#log_format
 */
import { parseMsec, parseTimeIso8601, parseTimeLocal } from './parseLogTime';

export const NAMED_FORMATS: Readonly<Record<string, string>> = {
  combined:
    '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent"',
  common: '$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent',
};

/** The fields of one line tally uses; absent when the format does not log them (or logged `-`). */
export interface LogFields {
  /** Epoch milliseconds, UTC (the logged offset applied). */
  at: number;
  /** `$request`: `GET /path?q HTTP/1.1`. */
  request: string | undefined;
  method: string | undefined;
  /** `$request_uri` or `$uri`: the request target. */
  uri: string | undefined;
  /** `$args` / `$query_string`, without `?`. */
  args: string | undefined;
  status: number | undefined;
  userAgent: string | undefined;
  host: string | undefined;
  /** `$http_referer`, as logged (escapes not undone). */
  referrer: string | undefined;
  /**
   * The client's address: the first address of `$http_x_forwarded_for` when the format logs one (the client
   * behind the proxies), else `$remote_addr`. Not validated here.
   */
  clientAddress: string | undefined;
}

export type MatchResult = { ok: true; fields: LogFields } | { ok: false; reason: string };

export interface CompiledLogFormat {
  readonly source: string;
  /** Which of the fields tally uses the format provides. */
  readonly provides: ReadonlySet<keyof LogFields>;
  match(line: string): MatchResult;
}

export class LogFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LogFormatError';
  }
}

type Slot =
  | 'time_local'
  | 'time_iso8601'
  | 'msec'
  | Exclude<keyof LogFields, 'at' | 'clientAddress'>
  | 'remote_addr'
  | 'forwarded_for'
  | 'ignored';

const SLOTS: Readonly<Record<string, Slot>> = {
  time_local: 'time_local',
  time_iso8601: 'time_iso8601',
  msec: 'msec',
  request: 'request',
  request_method: 'method',
  request_uri: 'uri',
  uri: 'uri',
  document_uri: 'uri',
  args: 'args',
  query_string: 'args',
  status: 'status',
  http_user_agent: 'userAgent',
  http_referer: 'referrer',
  remote_addr: 'remote_addr',
  http_x_forwarded_for: 'forwarded_for',
  host: 'host',
  http_host: 'host',
  server_name: 'host',
};

interface Step {
  readonly variable: string;
  readonly slot: Slot;
  /** The literal after the variable; empty when the variable ends the format. */
  readonly until: string;
  /** `until` starts with `"`: a backslash-escaped quote inside the field does not end it. */
  readonly quoted: boolean;
}

const VARIABLE = /\$(?:\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g;

export interface CompileOptions {
  /**
   * Refuse text after the format's end (a last variable is then one token). Off by default (extra fields after
   * `combined` are common);
   * on for the `common` fallback, so a truncated combined line is not mistaken for a common one.
   */
  readonly exactEnd?: boolean;
}

export function compileLogFormat(format: string, options: CompileOptions = {}): CompiledLogFormat {
  const source = NAMED_FORMATS[format] ?? format;
  const parts = source.split(VARIABLE);
  // split() with two capture groups yields [literal, braced, plain, literal, braced, plain, …, literal].
  const prefix = parts[0] ?? '';
  const steps: Step[] = [];
  for (let i = 1; i < parts.length; i += 3) {
    const variable = parts[i] ?? parts[i + 1] ?? '';
    const until = parts[i + 2] ?? '';
    if (until === '' && i + 3 < parts.length) {
      throw new LogFormatError(
        `log format variables must be separated by text, got $${variable} directly followed by $${parts[i + 3] ?? parts[i + 4]}`,
      );
    }
    steps.push({ variable, slot: SLOTS[variable] ?? 'ignored', until, quoted: until.startsWith('"') });
  }
  const slots = new Set(steps.map((step) => step.slot));
  if (!slots.has('time_local') && !slots.has('time_iso8601') && !slots.has('msec')) {
    throw new LogFormatError(
      `log format must contain $time_local, $time_iso8601 or $msec, got ${JSON.stringify(source)}`,
    );
  }
  if (!slots.has('request') && !slots.has('uri')) {
    throw new LogFormatError(`log format must contain $request, $request_uri or $uri, got ${JSON.stringify(source)}`);
  }
  const provides = new Set<keyof LogFields>(['at']);
  for (const slot of slots) {
    if (slot === 'request') provides.add('method').add('uri').add('args');
    else if (slot === 'remote_addr' || slot === 'forwarded_for') provides.add('clientAddress');
    else if (slot !== 'time_local' && slot !== 'time_iso8601' && slot !== 'msec' && slot !== 'ignored') {
      provides.add(slot);
    }
  }
  const exactEnd = options.exactEnd === true;
  return { source, provides, match: (line) => matchLine(line, prefix, steps, exactEnd) };
}

function matchLine(line: string, prefix: string, steps: readonly Step[], exactEnd: boolean): MatchResult {
  if (!line.startsWith(prefix))
    return { ok: false, reason: `expected the line to start with ${JSON.stringify(prefix)}` };
  const fields: LogFields = {
    at: Number.NaN,
    request: undefined,
    method: undefined,
    uri: undefined,
    args: undefined,
    status: undefined,
    userAgent: undefined,
    host: undefined,
    referrer: undefined,
    clientAddress: undefined,
  };
  let position = prefix.length;
  for (const step of steps) {
    let end: number;
    if (step.until === '') {
      // With exactEnd, a last variable is one token: `common` must not swallow a truncated combined tail.
      end = exactEnd ? line.indexOf(' ', position) : line.length;
      if (end < 0) end = line.length;
    } else {
      end = step.quoted ? indexOfUnescaped(line, step.until, position) : line.indexOf(step.until, position);
      if (end < 0) return { ok: false, reason: `expected ${JSON.stringify(step.until)} after $${step.variable}` };
    }
    if (step.slot !== 'ignored') {
      const failure = store(fields, step.slot, line.slice(position, end));
      if (failure !== undefined) return { ok: false, reason: failure };
    }
    position = end + step.until.length;
  }
  if (exactEnd && position < line.length) {
    return { ok: false, reason: `unexpected text after the format: ${shorten(line.slice(position))}` };
  }
  if (Number.isNaN(fields.at)) return { ok: false, reason: 'no timestamp' };
  return { ok: true, fields };
}

/** Puts one field's text in its place; returns why it is unusable, if it is. */
function store(fields: LogFields, slot: Slot, text: string): string | undefined {
  switch (slot) {
    case 'time_local':
    case 'time_iso8601':
    case 'msec': {
      const at =
        slot === 'time_local' ? parseTimeLocal(text) : slot === 'msec' ? parseMsec(text) : parseTimeIso8601(text);
      if (at === undefined) return `bad $${slot} ${shorten(text)}`;
      fields.at = at;
      return undefined;
    }
    case 'status': {
      if (text.length !== 3) return `bad $status ${shorten(text)}`;
      const status = Number(text);
      if (!Number.isInteger(status) || status < 100) return `bad $status ${shorten(text)}`;
      fields.status = status;
      return undefined;
    }
    case 'request':
      fields.request = text;
      return undefined;
    case 'ignored':
      return undefined;
    case 'remote_addr':
      // A forwarded-for address, wherever the format puts it, names the client better than the last proxy.
      if (text !== '-' && text !== '') fields.clientAddress ??= text;
      return undefined;
    case 'forwarded_for': {
      const comma = text.indexOf(',');
      const first = (comma < 0 ? text : text.slice(0, comma)).trim();
      if (first !== '-' && first !== '') fields.clientAddress = first;
      return undefined;
    }
    default:
      if (text !== '-' && text !== '') fields[slot] = text;
      return undefined;
  }
}

/** indexOf for a literal starting with `"` that skips quotes escaped with an odd number of backslashes. */
function indexOfUnescaped(line: string, literal: string, from: number): number {
  let at = line.indexOf(literal, from);
  while (at > 0) {
    let backslashes = 0;
    while (at - backslashes - 1 >= from && line.charCodeAt(at - backslashes - 1) === 92) backslashes += 1;
    if (backslashes % 2 === 0) return at;
    at = line.indexOf(literal, at + 1);
  }
  return at;
}

function shorten(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
