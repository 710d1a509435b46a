import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../../../src/logging/createLogger';
import { projectRoot } from '../../../../src/projectRoot';
import { startMongod } from '../../../../src/store/embedded/startMongod';

const saved = { PATH: process.env.PATH, MONGOMS_RUNTIME_DOWNLOAD: process.env.MONGOMS_RUNTIME_DOWNLOAD };
const memo = path.join(projectRoot(), '.tools', 'mongod-download-failed');
let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-start-mongod-'));
  // No mongod on PATH, and mongodb-memory-server told not to download one: the start fails at once, offline.
  process.env.PATH = (saved.PATH ?? '')
    .split(path.delimiter)
    .filter((entry) => entry !== '' && !fs.existsSync(path.join(entry, 'mongod')))
    .join(path.delimiter);
  process.env.MONGOMS_RUNTIME_DOWNLOAD = 'false';
});

afterEach(() => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

const memoTime = (): number | undefined => fs.statSync(memo, { throwIfNoEntry: false })?.mtimeMs;

describe('startMongod without a mongod', () => {
  it('leaves no empty mongod/ folder that a later start would take for mongod data, and remembers no download', async () => {
    const before = memoTime();
    await expect(
      startMongod({ dataDir: dir, logger: createLogger({ level: 'silent', nodeEnv: 'test' }) }),
    ).rejects.toThrow(/RUNTIME_DOWNLOAD: "false"/);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(memoTime()).toBe(before);
  });
});
