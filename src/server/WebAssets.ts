/**
 * The browser assets built by `npm run build` (scripts/build-web.ts) into dist/web, read once at start-up:
 * every file with its gzip twin, content type and ETag. Missing assets (only `tsc` ran) are not fatal: the
 * API works, and the pages answer 503 saying how to build them.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface WebAsset {
  readonly body: Buffer;
  readonly gzip: Buffer | undefined;
  readonly contentType: string;
  readonly etag: string;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export const MISSING_ASSETS_MESSAGE =
  'The browser assets are not built: run `npm run build` (it bundles them into dist/web), then restart tally.';

export class WebAssets {
  private constructor(
    readonly dir: string,
    private readonly files: ReadonlyMap<string, WebAsset>,
  ) {}

  /** Reads every file under `dir` (relative paths with "/" separators); an absent directory gives none. */
  static load(dir: string): WebAssets {
    const files = new Map<string, WebAsset>();
    const walk = (relative: string): void => {
      for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
        const name = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.isDirectory()) walk(name);
        else if (!name.endsWith('.gz')) files.set(name, read(dir, name));
      }
    };
    if (fs.existsSync(dir)) walk('');
    return new WebAssets(dir, files);
  }

  get(name: string): WebAsset | undefined {
    return this.files.get(name);
  }

  names(): string[] {
    return [...this.files.keys()];
  }
}

function read(dir: string, name: string): WebAsset {
  const full = path.join(dir, name);
  const body = fs.readFileSync(full);
  const gzipPath = `${full}.gz`;
  return {
    body,
    gzip: fs.existsSync(gzipPath) ? fs.readFileSync(gzipPath) : undefined,
    contentType: CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream',
    etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  };
}
