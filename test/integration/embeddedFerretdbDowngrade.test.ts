/**
 * A FerretDB build older than the data needs is refused before it runs (ferretdbDataFormat): a stand-in binary that
 * reports an older build and notes any launch is never launched; the real build starts on data its own version wrote.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StartRefusedError } from '../../src/errors/StartRefusedError';
import { createLogger } from '../../src/logging/createLogger';
import { ferretdbDowngradeRefusal } from '../../src/store/embedded/ferretdbDataFormat';
import { startFerretdb } from '../../src/store/embedded/startFerretdb';

const logger = createLogger({ level: 'silent', nodeEnv: 'test' });
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-ferretdb-downgrade-'));
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function olderBuild(): { binary: string; launches: string } {
  const binary = path.join(dir, 'ferretdb');
  const launches = path.join(dir, 'launches');
  fs.writeFileSync(
    binary,
    `#!/bin/sh\n[ "$1" = --version ] && { echo "version: v1.24.2-tally20"; exit 0; }\necho "$@" >> ${launches}\nexit 1\n`,
    { mode: 0o755 },
  );
  return { binary, launches };
}

describe('the embedded FerretDB against the build that last wrote its data', () => {
  it('refuses a build that cannot read the data, before running it', async () => {
    const { binary, launches } = olderBuild();
    const dataDir = path.join(dir, 'data');
    const started = startFerretdb({
      dataDir,
      logger,
      binary,
      refuseVersion: (version) => ferretdbDowngradeRefusal(dataDir, { lastVersion: 'v1.24.2-tally21' }, version),
    });
    await expect(started).rejects.toThrow(StartRefusedError);
    await expect(started).rejects.toThrow(
      `the data in ${dataDir} was last written by FerretDB v1.24.2-tally21, in a form only tally's builds from tally21 on read, and this one is FerretDB v1.24.2-tally20`,
    );
    expect(fs.existsSync(launches)).toBe(false);
  });

  it("starts tally's own build on data its own version wrote, and asks with that version", async () => {
    const asked: Array<string | undefined> = [];
    const database = await startFerretdb({
      dataDir: undefined,
      logger,
      refuseVersion: (version) => {
        asked.push(version);
        return ferretdbDowngradeRefusal('/data', { lastVersion: version }, version);
      },
    });
    try {
      expect(asked).toEqual([database.version]);
      expect(database.version).toMatch(/^v1\.24\.2-tally\d+$/);
    } finally {
      await database.stop();
    }
  });
});
