/**
 * Launches Debian's Chromium through playwright-core (never a downloaded browser) and records every
 * request its pages make, so a test can assert that nothing left 127.0.0.1.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_MISSING = [
  `Chromium not found at ${CHROMIUM_PATH} (CHROMIUM_PATH overrides the path).`,
  "The browser tests (test/browser) drive Debian's Chromium: install it with `sudo apt-get install -y chromium`.",
  'To run the other tests without it: `npx jest --selectProjects unit integration e2e`.',
].join(' ');

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
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(CHROMIUM_MISSING);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    // Chromium refuses to run as root with its sandbox (containers, CI).
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    timeout: 60_000,
  });
  // A visitor's user agent: headless Chromium says "HeadlessChrome", which the beacon endpoint rightly
  // treats as a bot (isbot) and does not count.
  const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`;
  const context = await browser.newContext({ viewport: { width: 1200, height: 760 }, userAgent });
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
