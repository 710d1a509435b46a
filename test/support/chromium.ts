/**
 * Finds and launches the Chromium of the browser tests through playwright-core (never a browser downloaded at
 * run time), and records every request its pages make, so a test can assert that nothing left 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { chromium } from 'playwright-core';
import { projectRoot } from '../../src/projectRoot';

/** A Chromium (or Chrome) binary to use instead of the packaged one. */
export const CHROMIUM_PATH_VARIABLE = 'CHROMIUM_PATH';
/** Set (to 1) by .ci/run: a missing Chromium then fails the browser tests instead of skipping them. */
export const REQUIRE_CHROMIUM_VARIABLE = 'TALLY_REQUIRE_CHROMIUM';
/** Where browserSetup leaves its finding for the test workers and the summary reporter. */
export const FOUND_VARIABLE = 'TALLY_TEST_CHROMIUM';
export const MISSING_VARIABLE = 'TALLY_TEST_CHROMIUM_MISSING';
export const ENABLE_VARIABLE = 'TALLY_TEST_CHROMIUM_ENABLE';

const PACKAGE = '@sparticuz/chromium';
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export type ChromiumLocation = { readonly path: string } | { readonly missing: string };

/**
 * CHROMIUM_PATH when set; else the Chromium that the devDependency @sparticuz/chromium ships for Linux x64
 * (unpacked once into the temporary directory); else Debian's. Each candidate must answer `--version`, so
 * a binary without its shared libraries counts as missing, with the loader's complaint as the reason.
 */
export function locateChromium(): ChromiumLocation {
  const override = process.env[CHROMIUM_PATH_VARIABLE];
  if (override) {
    if (!fs.existsSync(override)) return { missing: `${CHROMIUM_PATH_VARIABLE}=${override} does not exist` };
    return probe(override);
  }
  let packaged: ChromiumLocation | undefined;
  if (process.platform === 'linux' && process.arch === 'x64') {
    packaged = unpackPackagedChromium();
    if ('path' in packaged) return probe(packaged.path);
  }
  if (fs.existsSync(DEBIAN_CHROMIUM)) return probe(DEBIAN_CHROMIUM);
  return {
    missing:
      packaged && 'missing' in packaged
        ? packaged.missing
        : `${PACKAGE} ships Chromium for Linux x64 only (this is ${process.platform} ${process.arch}) and ${DEBIAN_CHROMIUM} does not exist`,
  };
}

/** The command that makes the browser tests run, for the messages that say they did not. */
export const ENABLE_BROWSER_TESTS =
  `npm ci (it installs ${PACKAGE}'s Chromium on Linux x64), or elsewhere ` +
  `${CHROMIUM_PATH_VARIABLE}=/path/to/chromium npx jest --selectProjects browser`;

function unpackPackagedChromium(): ChromiumLocation {
  const manifest = path.join(projectRoot(), 'node_modules', ...PACKAGE.split('/'), 'package.json');
  if (!fs.existsSync(manifest)) return { missing: `${PACKAGE} is not installed` };
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
  const home = path.join(os.tmpdir(), `tally-chromium-${version}`);
  const binary = path.join(home, 'chromium');
  if (fs.existsSync(binary)) return { path: binary };
  // The package unpacks into os.tmpdir(), checking only that a file of that name exists: give it a private
  // directory, then move the whole of it into place in one rename, so no run ever sees a half-written binary.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-chromium-unpack-'));
  try {
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `import c from '${PACKAGE}'; await c.executablePath();`],
      { cwd: projectRoot(), env: { ...process.env, TMPDIR: scratch }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // mkdtemp made it private; other users of the machine may share the unpacked binary.
    fs.chmodSync(scratch, 0o755);
    fs.renameSync(scratch, home);
  } catch (error) {
    fs.rmSync(scratch, { recursive: true, force: true });
    // Another run may have won the race to the same directory.
    if (fs.existsSync(binary)) return { path: binary };
    return { missing: `${PACKAGE} ${version} could not be unpacked: ${firstLine(error)}` };
  }
  return { path: binary };
}

function probe(binary: string): ChromiumLocation {
  try {
    execFileSync(binary, ['--version'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
    return { path: binary };
  } catch (error) {
    return { missing: `${binary} does not run: ${firstLine(error)}` };
  }
}

function firstLine(error: unknown): string {
  const stderr = (error as { stderr?: Buffer }).stderr?.toString('utf8').trim();
  return (stderr || (error as Error).message).split('\n')[0] ?? 'unknown error';
}

/**
 * Whether test/browser runs: true when Chromium was found; false (the tests skip) when it is missing, unless
 * TALLY_REQUIRE_CHROMIUM is set, in which case they run and fail saying why.
 */
export function browserTestsRun(): boolean {
  return process.env[MISSING_VARIABLE] === undefined || process.env[REQUIRE_CHROMIUM_VARIABLE] === '1';
}

export interface RecordingBrowser {
  readonly browser: Browser;
  readonly context: BrowserContext;
  /** Every URL a page requested or opened a WebSocket to, in order. */
  readonly requests: string[];
  /** Requests that would have left 127.0.0.1 (they are aborted, and listed here). */
  readonly outside: string[];
  close(): Promise<void>;
}

/** True for URLs that stay on this machine's 127.0.0.1 (or never reach a network: data:, blob:, about:). */
export function isLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'data:' || protocol === 'blob:' || protocol === 'about:' || hostname === '127.0.0.1';
}

export async function launchChromium(): Promise<RecordingBrowser> {
  const found = process.env[FOUND_VARIABLE];
  const location: ChromiumLocation = found
    ? { path: found }
    : process.env[MISSING_VARIABLE]
      ? { missing: process.env[MISSING_VARIABLE] }
      : locateChromium();
  if ('missing' in location) {
    throw new Error(
      `No usable Chromium for the browser tests: ${location.missing}. To run them: ${ENABLE_BROWSER_TESTS}.` +
        ` (${REQUIRE_CHROMIUM_VARIABLE}=1 makes a missing Chromium fail these tests instead of skipping them.)`,
    );
  }
  const browser = await chromium.launch({
    executablePath: location.path,
    // Playwright already starts headless with a new empty profile and without background networking,
    // component updates, sync or first-run pages; on a machine with no route out, GPU and QUIC probes only
    // fail. Chromium refuses to run as root with its sandbox (containers, CI).
    args: ['--disable-gpu', '--disable-quic', ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
    timeout: 60_000,
  });
  // A visitor's user agent and locale: headless Chromium says "HeadlessChrome", which the beacon endpoint
  // rightly treats as a bot (isbot) and does not count; and under LANG=C its navigator.language is
  // "en-US@posix", which Intl (the dashboard's charts) rejects.
  const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`;
  const context = await browser.newContext({ viewport: { width: 1200, height: 760 }, userAgent, locale: 'en-US' });
  const requests: string[] = [];
  const outside: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  context.on('page', (page) => page.on('websocket', (ws) => requests.push(ws.url())));
  await context.route(
    () => true,
    async (route) => {
      const url = route.request().url();
      if (isLocal(url)) return route.continue();
      outside.push(url);
      return route.abort('blockedbyclient');
    },
  );
  return {
    browser,
    context,
    requests,
    outside,
    async close() {
      await context.close().catch(() => undefined);
      await browser.close();
    },
  };
}
