/** Builds the browser assets into a fresh temporary directory, the way `npm run build` does into dist/web. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildWeb } from '../../scripts/build-web';

export async function buildTestWeb(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-web-'));
  await buildWeb(path.resolve(__dirname, '..', '..'), dir);
  return dir;
}
