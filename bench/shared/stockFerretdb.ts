/**
 * The stock (unpatched) FerretDB 1.24 build, for `--compare-stock`: built once by the same script that builds
 * the patched one (`node scripts/ensure-ferretdb.js --stock`, about 2 minutes with Go), then reused.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/projectRoot';

export async function stockFerretdbBinary(): Promise<string> {
  const script = path.join(projectRoot(), 'scripts', 'ensure-ferretdb.js');
  const { stdout } = await promisify(execFile)(process.execPath, [script, '--stock'], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const binary = stdout.trim().split('\n').pop();
  if (!binary || !fs.existsSync(binary))
    throw new Error(`the stock FerretDB build is not available (the script printed ${JSON.stringify(stdout)})`);
  return binary;
}
