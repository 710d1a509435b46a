/**
 * One access-log line → a hit, or the one named reason it is not one: unparseable (does not match the
 * format), filtered (a status, method, static asset or bot the user asked to skip), or invalid (a page or
 * site tally would refuse). Checks run cheapest first; the bot test, a large regex, is cached per user agent.
 * A hit carries the line's referrer, User-Agent, client address and UTM values for its dimensions, and a
 * visitor id from address and User-Agent (lineVisitor), each only as far as the server would accept it: a
 * malformed address is left out, an over-long referrer or User-Agent cut, so one odd line never fails a batch.
 */
import { isbot } from 'isbot';
import { MAX_REFERRER_LENGTH, MAX_USER_AGENT_LENGTH } from '../domain/dimensions/dimensionInputLimits';
import { parseClientIp } from '../domain/dimensions/parseClientIp';
import { utmFrom } from '../domain/dimensions/utmFrom';
import type { UtmDimensions } from '../domain/dimensions/utmFrom';
import { InputRejectedError } from '../domain/InputRejectedError';
import { parseHit } from '../domain/parseHit';
import type { CompiledLogFormat, LogFields } from './compileLogFormat';
import { lineVisitor } from './lineVisitor';
import type { LogHit } from './LogHit';
import { requestPage, splitRequestLine, unescapeLogged, utf8FromLatin1 } from './requestPage';

export type LogFilter = 'status' | 'method' | 'asset' | 'bot';
export const LOG_FILTERS: readonly LogFilter[] = ['status', 'method', 'asset', 'bot'];

export const DEFAULT_ASSET_EXTENSIONS: readonly string[] = [
  'css', 'js', 'mjs', 'map', 'json', 'xml', 'txt', 'wasm', 'webmanifest',
  'png', 'jpg', 'jpeg', 'gif', 'svg', 'ico', 'webp', 'avif', 'bmp', 'tif', 'tiff',
  'woff', 'woff2', 'ttf', 'otf', 'eot',
  'mp4', 'webm', 'mp3', 'ogg', 'wav', 'flac', 'm4a',
  'zip', 'gz', 'tgz', 'bz2', 'xz', 'rar', '7z', 'dmg', 'exe', 'iso',
]; // prettier-ignore

export type LineOutcome =
  | { kind: 'hit'; hit: LogHit }
  | { kind: 'unparseable'; reason: string }
  | { kind: 'filtered'; filter: LogFilter }
  | { kind: 'invalid'; reason: string };

export interface ClassifierOptions {
  /** Tried in order; the first that matches reads the line. */
  readonly formats: readonly CompiledLogFormat[];
  /** The site of every line; without it the format's `$host` (or `$http_host`, `$server_name`) names it. */
  readonly site: string | undefined;
  /** Virtual hosts counted as another site (`www.example.com` → `example.com`), after lower-casing. */
  readonly hostSites?: ReadonlyMap<string, string> | undefined;
  readonly keepQuery: boolean;
  /** Which filters are on. */
  readonly filters: ReadonlySet<LogFilter>;
  readonly assetExtensions: ReadonlySet<string>;
  /** The validation clock: lines further in the future than `maxClockSkewMs` are invalid. */
  readonly now: number;
  readonly maxClockSkewMs: number;
  /** Give each hit a visitor from the line's address and User-Agent (off: --no-visitors). */
  readonly visitors?: boolean | undefined;
  /** Give each hit the line's referrer, User-Agent, address and UTM values (off: --no-dimensions). */
  readonly dimensions?: boolean | undefined;
}

const BOT_CACHE_LIMIT = 50_000;

export class LogLineClassifier {
  private readonly botCache = new Map<string, boolean>();
  private readonly limits;

  constructor(private readonly options: ClassifierOptions) {
    this.limits = { maxCount: Number.MAX_SAFE_INTEGER, maxClockSkewMs: options.maxClockSkewMs, maxBatchSize: 1 };
  }

  classify(line: string): LineOutcome {
    let fields: LogFields | undefined;
    let logsUserAgent = false;
    let reason = '';
    for (const format of this.options.formats) {
      const result = format.match(line);
      if (result.ok) {
        fields = result.fields;
        logsUserAgent = format.provides.has('userAgent');
        break;
      }
      if (reason === '') reason = result.reason;
    }
    if (fields === undefined) return { kind: 'unparseable', reason };

    let method = fields.method;
    let target = fields.uri;
    if (fields.request !== undefined) {
      const request = splitRequestLine(fields.request);
      if (request === undefined) return { kind: 'unparseable', reason: `bad $request ${shorten(fields.request)}` };
      method ??= request.method;
      target ??= request.target;
    }
    if (target === undefined) return { kind: 'unparseable', reason: 'no request target' };

    const filters = this.options.filters;
    const status = fields.status;
    if (filters.has('status') && status !== undefined && (status < 200 || status > 399)) {
      return { kind: 'filtered', filter: 'status' };
    }
    if (filters.has('method') && method !== undefined && method !== 'GET')
      return { kind: 'filtered', filter: 'method' };

    const page = requestPage(target, this.options.keepQuery, fields.args);
    if (!page.ok) return { kind: 'invalid', reason: page.reason };
    if (filters.has('asset') && this.isAsset(page.page)) return { kind: 'filtered', filter: 'asset' };
    // Browsers always send a user agent: a logged `-` is a script (isbot says so too).
    if (filters.has('bot') && logsUserAgent && this.isBot(fields.userAgent ?? '-')) {
      return { kind: 'filtered', filter: 'bot' };
    }

    let site = this.options.site;
    if (site === undefined) {
      const host = siteFromHost(fields.host);
      site = host === undefined ? undefined : (this.options.hostSites?.get(host) ?? host);
    }
    if (site === undefined) return { kind: 'invalid', reason: 'no site: the line has no host and --site is not set' };
    try {
      const { at, count } = parseHit(
        { site, page: page.page, at: new Date(fields.at) },
        { now: this.options.now, limits: this.limits },
      );
      const hit: LogHit = { site, page: page.page, at, count };
      if (!this.options.visitors && !this.options.dimensions) return { kind: 'hit', hit };
      return { kind: 'hit', hit: this.withInputs(hit, fields, target) };
    } catch (error) {
      if (error instanceof InputRejectedError) return { kind: 'invalid', reason: error.message };
      throw error;
    }
  }

  /** The hit with what its line says about visitor and dimensions (the options say which). */
  private withInputs(hit: LogHit, fields: LogFields, target: string): LogHit {
    const userAgent = logged(fields.userAgent, MAX_USER_AGENT_LENGTH);
    let clientIp: string | undefined;
    if (fields.clientAddress !== undefined) {
      try {
        clientIp = parseClientIp(fields.clientAddress).address;
      } catch {
        clientIp = undefined;
      }
    }
    const visitor =
      this.options.visitors && clientIp !== undefined ? lineVisitor(clientIp, userAgent, hit.at) : undefined;
    if (!this.options.dimensions) return { ...hit, visitor };
    return {
      ...hit,
      visitor,
      referrer: logged(fields.referrer, MAX_REFERRER_LENGTH),
      userAgent,
      clientIp,
      // A kept query is part of the page, where the server reads its UTM values itself.
      utm: this.options.keepQuery ? undefined : utmOf(target, fields.args),
    };
  }

  private isAsset(page: string): boolean {
    const query = page.indexOf('?');
    const path = query < 0 ? page : page.slice(0, query);
    const dot = path.lastIndexOf('.');
    if (dot < 0 || dot < path.lastIndexOf('/')) return false;
    return this.options.assetExtensions.has(path.slice(dot + 1).toLowerCase());
  }

  private isBot(userAgent: string): boolean {
    let bot = this.botCache.get(userAgent);
    if (bot === undefined) {
      // Bounded: a log of unique user agents must not grow the cache without limit.
      if (this.botCache.size >= BOT_CACHE_LIMIT) this.botCache.clear();
      bot = isbot(userAgent.includes('\\') ? userAgent.replace(/\\(["\\])/g, '$1') : userAgent);
      this.botCache.set(userAgent, bot);
    }
    return bot;
  }
}

/** `Example.COM:8080` → `example.com`; `-` or nothing → undefined. */
export function siteFromHost(host: string | undefined): string | undefined {
  if (host === undefined) return undefined;
  let site = host;
  if (site.startsWith('[')) {
    const end = site.indexOf(']');
    if (end > 0) site = site.slice(0, end + 1);
  } else {
    const colon = site.lastIndexOf(':');
    if (colon > 0 && site.indexOf(':') === colon) site = site.slice(0, colon);
  }
  if (site.endsWith('.')) site = site.slice(0, -1);
  const decoded = utf8FromLatin1(site.toLowerCase());
  return decoded === undefined || decoded === '' ? undefined : decoded;
}

function shorten(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

/** A logged header value as it was sent: escapes undone, UTF-8 restored, cut to `maxLength`; `-` is none. */
function logged(text: string | undefined, maxLength: number): string | undefined {
  if (text === undefined) return undefined;
  const value = utf8FromLatin1(text.includes('\\') ? unescapeLogged(text) : text);
  return value === undefined || value === '' ? undefined : value.slice(0, maxLength);
}

/** The request's UTM values, when its query (in the target, or `$args`) has any. */
function utmOf(target: string, args: string | undefined): UtmDimensions | undefined {
  const question = target.indexOf('?');
  const query = question >= 0 ? target.slice(question + 1) : (args ?? '');
  if (!query.includes('utm_')) return undefined;
  const text = utf8FromLatin1(query.includes('\\') ? unescapeLogged(query) : query);
  return text === undefined ? undefined : utmFrom(`?${text}`);
}
