import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { legacyEngineFolders, readEngineRecord, writeEngineRecord } from '../../../../src/store/embedded/EngineRecord';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-engine-record-'));
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the engine record', () => {
  it('reads back what was written, and nothing where none was', () => {
    expect(readEngineRecord(dir)).toBeUndefined();
    writeEngineRecord(dir, { engine: 'ferretdb', version: 'v1.24.2-tally10' }, Date.UTC(2026, 10, 26, 9, 0));
    expect(readEngineRecord(dir)).toEqual({
      engine: 'ferretdb',
      version: 'v1.24.2-tally10',
      lastVersion: 'v1.24.2-tally10',
      recordedAt: '2026-11-26T09:00:00.000Z',
      readableFrom: undefined,
    });
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'engine.json'), 'utf8'))).toEqual({
      engine: 'ferretdb',
      version: 'v1.24.2-tally10',
      recordedAt: '2026-11-26T09:00:00.000Z',
      lastVersion: 'v1.24.2-tally10',
    });
    expect(fs.readdirSync(dir)).toEqual(['engine.json']);
  });

  it('keeps the first version and time when a later start notes its own version', () => {
    writeEngineRecord(dir, { engine: 'ferretdb', version: 'v1.24.2-tally10' }, Date.UTC(2026, 10, 26, 9, 0));
    const first = { engine: 'ferretdb' as const, ...readEngineRecord(dir) };
    writeEngineRecord(
      dir,
      { ...first, lastVersion: 'v1.24.2-tally21', readableFrom: 21 },
      Date.UTC(2026, 10, 29, 9, 0),
    );
    expect(readEngineRecord(dir)).toEqual({
      engine: 'ferretdb',
      version: 'v1.24.2-tally10',
      lastVersion: 'v1.24.2-tally21',
      recordedAt: '2026-11-26T09:00:00.000Z',
      readableFrom: 21,
    });
  });

  it('reads a record from before lastVersion as last written by its first version', () => {
    fs.writeFileSync(
      path.join(dir, 'engine.json'),
      '{"engine": "ferretdb", "version": "v1.24.2-tally16", "recordedAt": "2026-11-20T00:00:00.000Z"}',
    );
    expect(readEngineRecord(dir)).toMatchObject({ version: 'v1.24.2-tally16', lastVersion: 'v1.24.2-tally16' });
  });

  it('fails with the file and what it found when the file names no engine', () => {
    fs.writeFileSync(path.join(dir, 'engine.json'), '{"engine": "postgres"}');
    expect(() => readEngineRecord(dir)).toThrow(
      `${path.join(dir, 'engine.json')} names no engine ("mongod" or "ferretdb"), got "postgres"`,
    );
  });
});

describe('legacyEngineFolders', () => {
  it('counts an engine folder only when it holds files, with its newest file time', () => {
    fs.mkdirSync(path.join(dir, 'mongod', 'journal'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'ferretdb'));
    expect(legacyEngineFolders(dir)).toEqual({});

    const file = path.join(dir, 'ferretdb', 'tally.sqlite');
    fs.writeFileSync(file, 'x');
    fs.utimesSync(file, new Date(1_000_000), new Date(2_000_000));
    expect(legacyEngineFolders(dir)).toEqual({ ferretdb: 2_000_000 });
  });

  it('finds nothing in a directory that does not exist', () => {
    expect(legacyEngineFolders(path.join(dir, 'missing'))).toEqual({});
  });
});
