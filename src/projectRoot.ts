/** The repository root, found from this file whether it runs from src/ (tests) or dist/src/ (build). */
import fs from 'node:fs';
import path from 'node:path';

export function projectRoot(from: string = __dirname): string {
  let dir = from;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'scripts'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no project root above ${from}`);
    dir = parent;
  }
}
