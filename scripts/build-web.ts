/**
 * Builds the browser assets into dist/web (run by `npm run build`): the playground (GraphiQL + React), the
 * dashboard (uPlot + graphql-ws client) and the /tally.js beacon, bundled from npm packages by esbuild so
 * the server fetches nothing at run time. Each file also gets a .gz twin that the server sends when the
 * browser accepts gzip.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'esbuild';
import type { BuildOptions } from 'esbuild';

/** The files the server serves, relative to the output directory. */
export const WEB_FILES = [
  'tally.js',
  'playground.html',
  'ui/playground.js',
  'ui/playground.css',
  'dashboard.html',
  'ui/dashboard.js',
  'ui/dashboard.css',
] as const;

export async function buildWeb(root: string, outDir: string): Promise<void> {
  const web = path.join(root, 'web');
  const common: BuildOptions = {
    bundle: true,
    minify: true,
    legalComments: 'linked',
    target: ['chrome100', 'firefox100', 'safari15'],
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
    absWorkingDir: root,
  };
  fs.mkdirSync(path.join(outDir, 'ui'), { recursive: true });
  await Promise.all([
    build({
      ...common,
      entryPoints: { playground: path.join(web, 'playground/playground.tsx') },
      outdir: path.join(outDir, 'ui'),
      format: 'iife',
      jsx: 'automatic',
      // GraphiQL's stylesheet inlines its fonts; anything else it references would be a request elsewhere.
      loader: { '.woff2': 'dataurl', '.woff': 'dataurl', '.ttf': 'dataurl', '.png': 'dataurl', '.svg': 'dataurl' },
    }),
    build({
      ...common,
      entryPoints: { dashboard: path.join(web, 'dashboard/dashboard.ts') },
      outdir: path.join(outDir, 'ui'),
      format: 'iife',
    }),
    // The beacon is pasted into other people's sites: small, no legal-comment file, plain ES2017.
    build({
      ...common,
      legalComments: 'none',
      target: ['es2017'],
      entryPoints: [path.join(web, 'beacon/tally.ts')],
      outfile: path.join(outDir, 'tally.js'),
      format: 'iife',
    }),
  ]);
  fs.copyFileSync(path.join(web, 'playground/index.html'), path.join(outDir, 'playground.html'));
  fs.copyFileSync(path.join(web, 'dashboard/index.html'), path.join(outDir, 'dashboard.html'));
  for (const file of WEB_FILES) {
    const full = path.join(outDir, file);
    fs.writeFileSync(`${full}.gz`, zlib.gzipSync(fs.readFileSync(full), { level: 9 }));
  }
}

if (require.main === module) {
  const root = path.resolve(__dirname, '..', '..');
  const outDir = path.join(root, 'dist', 'web');
  buildWeb(root, outDir).then(
    () => {
      for (const file of WEB_FILES) {
        const size = fs.statSync(path.join(outDir, file)).size;
        const gz = fs.statSync(path.join(outDir, `${file}.gz`)).size;
        console.log(`dist/web/${file}: ${(size / 1024).toFixed(1)} KB (${(gz / 1024).toFixed(1)} KB gzip)`);
      }
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
