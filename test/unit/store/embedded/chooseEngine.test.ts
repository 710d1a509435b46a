import { chooseEngine, mongodGoneMessage } from '../../../../src/store/embedded/chooseEngine';
import type { EngineChoice, EngineFacts } from '../../../../src/store/embedded/chooseEngine';

const DIR = '/srv/tally/data';
const MONGOD = { path: '/usr/bin/mongod', version: 'v8.0.4' };
const FERRETDB_RECORD = { engine: 'ferretdb', version: 'v1.24.2-tally10' } as const;
const MONGOD_RECORD = { engine: 'mongod', version: 'v8.0.4' } as const;

/** An offline machine's first start on a new directory, varied by each case. */
function facts(overrides: Partial<EngineFacts>): EngineFacts {
  return {
    requested: 'auto',
    dataDir: DIR,
    recorded: undefined,
    legacy: {},
    mongodInstalled: undefined,
    mongodDownloadDue: false,
    ...overrides,
  };
}

const HINT =
  'mongod v8.0.4 is available (/usr/bin/mongod), but the data in /srv/tally/data is held by FerretDB ' +
  'v1.24.2-tally10, which tally keeps using; `tally migrate --to URI` moves it to a MongoDB server';

describe('chooseEngine', () => {
  it.each<[string, Partial<EngineFacts>, EngineChoice]>([
    ['a new directory, offline: FerretDB, recorded', {}, { start: 'ferretdb', otherwise: 'fail', record: true }],
    [
      'a new directory, mongod on PATH: mongod, FerretDB if it fails to start',
      { mongodInstalled: MONGOD },
      { start: 'mongod', otherwise: 'ferretdb', record: true },
    ],
    [
      'a new directory, a download due: mongod, FerretDB if the download fails',
      { mongodDownloadDue: true },
      { start: 'mongod', otherwise: 'ferretdb', record: true },
    ],
    [
      'a new directory with an explicit engine: that engine, its own error if it fails',
      { requested: 'mongod' },
      { start: 'mongod', otherwise: 'fail', record: true },
    ],
    [
      'a temporary directory (tests): as before records, nothing recorded',
      { dataDir: undefined, mongodDownloadDue: true, recorded: FERRETDB_RECORD },
      { start: 'mongod', otherwise: 'ferretdb', record: false },
    ],
    [
      'recorded FerretDB, offline: FerretDB',
      { recorded: FERRETDB_RECORD },
      { start: 'ferretdb', otherwise: 'fail', record: false },
    ],
    [
      'recorded FerretDB, mongod now on PATH: FerretDB, with the hint',
      { recorded: FERRETDB_RECORD, mongodInstalled: MONGOD },
      { start: 'ferretdb', otherwise: 'fail', record: false, hint: HINT },
    ],
    [
      'recorded FerretDB, the download due a day later: FerretDB, no download tried, no hint',
      { recorded: FERRETDB_RECORD, mongodDownloadDue: true },
      { start: 'ferretdb', otherwise: 'fail', record: false },
    ],
    [
      'recorded FerretDB, asked for FerretDB, mongod on PATH: FerretDB, with the hint',
      { requested: 'ferretdb', recorded: FERRETDB_RECORD, mongodInstalled: MONGOD },
      { start: 'ferretdb', otherwise: 'fail', record: false, hint: HINT },
    ],
    [
      'recorded mongod, mongod on PATH: mongod',
      { recorded: MONGOD_RECORD, mongodInstalled: MONGOD },
      { start: 'mongod', otherwise: 'refuse', record: false },
    ],
    [
      'recorded mongod, mongod gone and the download failed today: mongod all the same, refusal if it fails',
      { recorded: MONGOD_RECORD },
      { start: 'mongod', otherwise: 'refuse', record: false },
    ],
    [
      'no record, only ferretdb/ holds files: FerretDB, recorded, with the hint when mongod is there',
      { legacy: { ferretdb: 1000 }, mongodInstalled: { path: '/usr/bin/mongod', version: undefined } },
      {
        start: 'ferretdb',
        otherwise: 'fail',
        record: true,
        recognised:
          '/srv/tally/data has no engine record (data from before records): its folder ferretdb/ says FerretDB holds it',
        hint:
          'mongod is available (/usr/bin/mongod), but the data in /srv/tally/data is held by FerretDB, which tally ' +
          'keeps using; `tally migrate --to URI` moves it to a MongoDB server',
      },
    ],
    [
      'no record, only mongod/ holds files: mongod, recorded',
      { legacy: { mongod: 1000 } },
      {
        start: 'mongod',
        otherwise: 'refuse',
        record: true,
        recognised:
          '/srv/tally/data has no engine record (data from before records): its folder mongod/ says mongod holds it',
      },
    ],
    [
      'no record, both folders hold files: the one written last',
      { legacy: { mongod: 1000, ferretdb: 2000 } },
      {
        start: 'ferretdb',
        otherwise: 'fail',
        record: true,
        recognised:
          '/srv/tally/data has no engine record (data from before records): its folder ferretdb/ says FerretDB ' +
          'holds it (written last; mongod/ is left as it is)',
      },
    ],
  ])('%s', (_name, overrides, expected) => {
    expect(chooseEngine(facts(overrides))).toEqual(expected);
  });

  it.each<[string, Partial<EngineFacts>, string]>([
    [
      'mongod asked for, FerretDB recorded',
      { requested: 'mongod', recorded: FERRETDB_RECORD, mongodInstalled: MONGOD },
      'TALLY_EMBEDDED_ENGINE=mongod does not match the data in /srv/tally/data, which FerretDB v1.24.2-tally10 ' +
        'holds: start with TALLY_EMBEDDED_ENGINE=ferretdb (or auto), or move the data with `tally migrate --to URI`',
    ],
    [
      'FerretDB asked for, mongod recorded',
      { requested: 'ferretdb', recorded: MONGOD_RECORD },
      'TALLY_EMBEDDED_ENGINE=ferretdb does not match the data in /srv/tally/data, which mongod v8.0.4 holds: ' +
        'start with TALLY_EMBEDDED_ENGINE=mongod (or auto), or move the data with `tally migrate --to URI`',
    ],
    [
      'FerretDB asked for, no record but mongod/ holds files',
      { requested: 'ferretdb', legacy: { mongod: 1000 } },
      'TALLY_EMBEDDED_ENGINE=ferretdb does not match the data in /srv/tally/data, which mongod holds: ' +
        'start with TALLY_EMBEDDED_ENGINE=mongod (or auto), or move the data with `tally migrate --to URI`',
    ],
  ])('refuses an explicit engine that does not match the data: %s', (_name, overrides, refuse) => {
    expect(chooseEngine(facts(overrides))).toEqual({ refuse });
  });

  it('names the directory, the recorded mongod and the start failure when mongod is gone', () => {
    expect(mongodGoneMessage(DIR, 'v8.0.4', 'download failed')).toBe(
      'the data in /srv/tally/data is held by mongod v8.0.4, and no mongod could be started (download failed): ' +
        'put mongod on PATH, or set TALLY_DATA_DIR to another directory to start afresh',
    );
  });
});
