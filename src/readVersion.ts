/** The service version, from package.json. */
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './projectRoot';

export function readVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
