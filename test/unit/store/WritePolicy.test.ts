import { detectEngine } from '../../../src/store/EngineInfo';
import { MAIN_CONNECTIONS_ATOMIC_FERRETDB, writePolicyFor } from '../../../src/store/WritePolicy';
import type { WritePolicy } from '../../../src/store/WritePolicy';
import {
  ATOMIC_FERRETDB_BUILD_INFO,
  MONGODB_BUILD_INFO,
  PATCHED_FERRETDB_BUILD_INFO,
  STOCK_FERRETDB_BUILD_INFO,
} from '../../support/buildInfoSamples';

const mongodb = detectEngine(MONGODB_BUILD_INFO);
const patched = detectEngine(PATCHED_FERRETDB_BUILD_INFO);
const stock = detectEngine(STOCK_FERRETDB_BUILD_INFO);
const atomic = detectEngine(ATOMIC_FERRETDB_BUILD_INFO);

const MONGODB_POLICY: WritePolicy = {
  targeting: 'shardKey',
  reads: 'shardKeyRanges',
  maxUpdatesPerCommand: undefined,
  trustWriteErrorIndexes: true,
  singleWriter: false,
  mainConnections: undefined,
  writerPerCollection: false,
  maxFlushesInFlight: undefined,
  expiry: 'ttl',
};

describe('writePolicyFor', () => {
  it.each([
    ['MongoDB', mongodb, MONGODB_POLICY],
    [
      "tally's FerretDB build",
      patched,
      {
        targeting: 'shardKey',
        reads: 'idList',
        maxUpdatesPerCommand: undefined,
        trustWriteErrorIndexes: false,
        singleWriter: true,
        mainConnections: 1,
        writerPerCollection: true,
        maxFlushesInFlight: 1,
        expiry: 'sweep',
      },
    ],
    [
      "tally's FerretDB build from tally18 (atomic updates)",
      atomic,
      {
        targeting: 'shardKey',
        reads: 'idList',
        maxUpdatesPerCommand: undefined,
        trustWriteErrorIndexes: false,
        singleWriter: true,
        mainConnections: MAIN_CONNECTIONS_ATOMIC_FERRETDB,
        writerPerCollection: true,
        maxFlushesInFlight: 1,
        expiry: 'sweep',
      },
    ],
    [
      'stock FerretDB',
      stock,
      {
        targeting: 'idOnly',
        reads: 'exactIds',
        maxUpdatesPerCommand: 90,
        trustWriteErrorIndexes: false,
        singleWriter: true,
        mainConnections: 1,
        writerPerCollection: false,
        maxFlushesInFlight: 1,
        expiry: 'sweep',
      },
    ],
  ])('derives the policy of %s', (_name, engine, expected) => {
    expect(writePolicyFor(engine)).toEqual(expected);
  });

  it.each([
    ['MongoDB', mongodb],
    ["tally's FerretDB build", patched],
  ])('keeps the stock-FerretDB workarounds out of the policy of %s', (_name, engine) => {
    const policy = writePolicyFor(engine);
    expect(policy.targeting).not.toBe('idOnly');
    expect(policy.reads).not.toBe('exactIds');
    expect(policy.maxUpdatesPerCommand).toBeUndefined();
  });

  it.each([
    // DOCUMENT_TARGETING=idOnly: `_id`-only filters; where the engine reads id lists through its index it keeps them.
    [mongodb, 'idOnly', { targeting: 'idOnly', reads: 'exactIds' }],
    [patched, 'idOnly', { targeting: 'idOnly', reads: 'idList' }],
    [stock, 'shardKey', { targeting: 'shardKey', reads: 'shardKeyRanges' }],
    [stock, 'auto', { targeting: 'idOnly', reads: 'exactIds' }],
  ] as const)('applies DOCUMENT_TARGETING=%# on top of the engine', (engine, targeting, expected) => {
    expect(writePolicyFor(engine, { targeting })).toMatchObject(expected);
  });

  it.each([
    ['MongoDB', mongodb],
    ["tally's FerretDB build", patched],
    ["tally's FerretDB build from tally18", atomic],
  ])('puts everything on one connection with one flush in flight when asked, on %s', (_name, engine) => {
    expect(writePolicyFor(engine, { singleConnection: true })).toMatchObject({
      singleWriter: true,
      mainConnections: 1,
      writerPerCollection: false,
      maxFlushesInFlight: 1,
    });
  });

  it.each([
    // WRITE_MAX_UPDATES_PER_COMMAND: the smaller of the setting and the engine's own limit.
    [mongodb, 50, 50],
    [patched, 50, 50],
    [stock, 50, 50],
    [stock, 500, 90],
    [mongodb, undefined, undefined],
    [stock, undefined, 90],
  ] as const)('applies WRITE_MAX_UPDATES_PER_COMMAND=%# on top of the engine', (engine, setting, expected) => {
    expect(writePolicyFor(engine, { maxUpdatesPerCommand: setting }).maxUpdatesPerCommand).toBe(expected);
  });

  it('changes nothing else when a single connection is asked for', () => {
    expect(writePolicyFor(mongodb, { singleConnection: true })).toEqual({
      ...MONGODB_POLICY,
      singleWriter: true,
      mainConnections: 1,
      maxFlushesInFlight: 1,
    });
  });
});
