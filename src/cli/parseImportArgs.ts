/**
 * `tally import` arguments → one typed options object, or a UsageError naming what was expected and what
 * came (exit code 2). Pure: the environment is passed in.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_ASSET_EXTENSIONS, LOG_FILTERS } from '../accesslog/LogLineClassifier';
import type { LogFilter } from '../accesslog/LogLineClassifier';
import { compileLogFormat, LogFormatError, NAMED_FORMATS } from '../accesslog/compileLogFormat';
import type { CompiledLogFormat } from '../accesslog/compileLogFormat';
import { parseSite } from '../domain/parseSite';
import { InputRejectedError } from '../domain/InputRejectedError';
import { UsageError } from './UsageError';

export const DEFAULT_GRAPHQL_URL = 'http://127.0.0.1:4000/graphql';
export const DEFAULT_BATCH_LINES = 5_000;
export const DEFAULT_CONCURRENCY = 4;

export type ProgressMode = 'auto' | 'bar' | 'plain' | 'none';

export interface ImportOptions {
  /** Paths; `-` is stdin. */
  readonly files: readonly string[];
  /** Tried in order per line: an explicit --format alone, else combined then common. */
  readonly formats: readonly CompiledLogFormat[];
  readonly formatName: string;
  readonly site: string | undefined;
  /** `--map-host HOST=SITE`: lines of virtual host HOST count for SITE. */
  readonly hostSites: ReadonlyMap<string, string>;
  readonly target:
    | { kind: 'graphql'; url: string; apiKey: string | undefined }
    | { kind: 'mongodb'; uri: string; db: string | undefined }
    | { kind: 'dry-run' };
  readonly keepQuery: boolean;
  /** Send each line's visitor (from address and User-Agent); off: --no-visitors. */
  readonly visitors: boolean;
  /** Send each line's referrer, User-Agent, address and UTM values for its dimensions; off: --no-dimensions. */
  readonly dimensions: boolean;
  readonly filters: ReadonlySet<LogFilter>;
  readonly assetExtensions: ReadonlySet<string>;
  readonly batchLines: number;
  readonly concurrency: number;
  readonly json: boolean;
  readonly progress: ProgressMode;
}

export type ParsedImportArgs = { help: true } | { help: false; options: ImportOptions };

const FLAGS = {
  site: { type: 'string' },
  'map-host': { type: 'string', multiple: true },
  format: { type: 'string' },
  url: { type: 'string' },
  'api-key': { type: 'string' },
  'mongodb-uri': { type: 'string' },
  db: { type: 'string' },
  'dry-run': { type: 'boolean' },
  'keep-query': { type: 'boolean' },
  'no-visitors': { type: 'boolean' },
  'no-dimensions': { type: 'boolean' },
  'no-status-filter': { type: 'boolean' },
  'no-method-filter': { type: 'boolean' },
  'no-asset-filter': { type: 'boolean' },
  'no-bot-filter': { type: 'boolean' },
  'asset-extensions': { type: 'string' },
  'batch-lines': { type: 'string' },
  concurrency: { type: 'string' },
  json: { type: 'boolean' },
  progress: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseImportArgs(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  stdinIsTty: boolean,
): ParsedImportArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional.*$/s, ''));
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { help: true };

  const files = positionals.length > 0 ? positionals : ['-'];
  if (files.filter((file) => file === '-').length > 1) throw new UsageError('stdin ("-") can be read only once');
  if (positionals.length === 0 && stdinIsTty) {
    throw new UsageError('expected log files to import (or "-" / a pipe for stdin), got none');
  }

  const formatName = values.format ?? 'combined';
  let formats: CompiledLogFormat[];
  try {
    formats =
      values.format === undefined
        ? [compileLogFormat('combined'), compileLogFormat('common', { exactEnd: true })]
        : [compileLogFormat(values.format)];
  } catch (error) {
    if (error instanceof LogFormatError) {
      throw new UsageError(
        `--format must be ${Object.keys(NAMED_FORMATS).join(', ')} or an nginx log_format: ${error.message}`,
      );
    }
    throw error;
  }

  let site: string | undefined;
  if (values.site !== undefined) {
    site = usageSite(values.site, '--site');
  } else if (!formats.every((format) => format.provides.has('host'))) {
    throw new UsageError(
      `expected --site, or a --format with $host, $http_host or $server_name to name each line's site; got neither`,
    );
  }

  const hostSites = new Map<string, string>();
  for (const mapping of values['map-host'] ?? []) {
    const [host, mapped, extra] = mapping.split('=');
    if (host === undefined || host === '' || mapped === undefined || extra !== undefined) {
      throw new UsageError(
        `--map-host must be HOST=SITE, e.g. www.example.com=example.com, got ${JSON.stringify(mapping)}`,
      );
    }
    if (site !== undefined) throw new UsageError('--map-host goes with sites named by the log, not with --site');
    hostSites.set(host.toLowerCase(), usageSite(mapped, '--map-host site'));
  }

  const targets = [values['dry-run'] === true, values['mongodb-uri'] !== undefined, values.url !== undefined];
  if (targets.filter(Boolean).length > 1) throw new UsageError('use one of --url, --mongodb-uri and --dry-run');
  const target: ImportOptions['target'] =
    values['dry-run'] === true
      ? { kind: 'dry-run' }
      : values['mongodb-uri'] !== undefined
        ? { kind: 'mongodb', uri: mongodbUri(values['mongodb-uri']), db: values.db ?? env.MONGODB_DB }
        : {
            kind: 'graphql',
            url: graphqlUrl(values.url ?? DEFAULT_GRAPHQL_URL),
            apiKey: values['api-key'] ?? env.TALLY_API_KEY,
          };
  if (values.db !== undefined && target.kind !== 'mongodb') throw new UsageError('--db goes with --mongodb-uri');

  const filters = new Set<LogFilter>(LOG_FILTERS);
  for (const filter of LOG_FILTERS) if (values[`no-${filter}-filter`] === true) filters.delete(filter);

  const assetExtensions = new Set(
    (values['asset-extensions']?.split(',') ?? DEFAULT_ASSET_EXTENSIONS)
      .map((ext) => ext.trim().replace(/^\./, '').toLowerCase())
      .filter((ext) => ext !== ''),
  );

  const progress = values.progress ?? 'auto';
  if (progress !== 'auto' && progress !== 'bar' && progress !== 'plain' && progress !== 'none') {
    throw new UsageError(`--progress must be auto, bar, plain or none, got ${JSON.stringify(progress)}`);
  }

  return {
    help: false,
    options: {
      files,
      formats,
      formatName,
      site,
      hostSites,
      target,
      keepQuery: values['keep-query'] === true,
      visitors: values['no-visitors'] !== true,
      dimensions: values['no-dimensions'] !== true,
      filters,
      assetExtensions,
      batchLines: integer(values['batch-lines'], '--batch-lines', DEFAULT_BATCH_LINES, 1, 100_000),
      concurrency: integer(values.concurrency, '--concurrency', DEFAULT_CONCURRENCY, 1, 64),
      json: values.json === true,
      progress,
    },
  };
}

function usageSite(text: string, field: string): string {
  try {
    return parseSite(text, field);
  } catch (error) {
    if (error instanceof InputRejectedError) throw new UsageError(error.message);
    throw error;
  }
}

function integer(text: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return value;
}

function graphqlUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url must be an http(s) URL such as ${DEFAULT_GRAPHQL_URL}, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--url must be an http(s) URL such as ${DEFAULT_GRAPHQL_URL}, got ${JSON.stringify(text)}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new UsageError('--url must not contain credentials; pass the API key with --api-key or TALLY_API_KEY');
  }
  return url.href;
}

function mongodbUri(text: string): string {
  if (!/^mongodb(\+srv)?:\/\/./.test(text)) {
    // Only the scheme is echoed: the rest may hold a password.
    const scheme = text.includes('://') ? `${text.slice(0, text.indexOf('://'))}://…` : 'no scheme';
    throw new UsageError(`--mongodb-uri must start with mongodb:// or mongodb+srv://, got ${scheme}`);
  }
  return text;
}
