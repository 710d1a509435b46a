import { detectEngine } from '../../../src/store/EngineInfo';
import {
  MONGODB_BUILD_INFO,
  PATCHED_FERRETDB_BUILD_INFO,
  STOCK_FERRETDB_BUILD_INFO,
} from '../../support/buildInfoSamples';

describe('detectEngine', () => {
  it.each([
    [
      'MongoDB',
      MONGODB_BUILD_INFO,
      {
        name: 'MongoDB',
        version: '7.0.14',
        compatibleWith: '7.0.14',
        supportsTtlIndexes: true,
        requiresSingleWriter: false,
        atomicDocumentUpdates: true,
        concurrentCollectionWriters: true,
        indexesOnlyExactIdFilters: false,
        prefersIdListReads: false,
        maxUpdatesPerCommand: undefined,
        reportsWriteErrorIndexes: true,
      },
    ],
    [
      "tally's patched FerretDB (v1.24.2-tally6)",
      PATCHED_FERRETDB_BUILD_INFO,
      {
        name: 'FerretDB',
        version: '1.24.2-tally6',
        compatibleWith: '7.0.42',
        supportsTtlIndexes: false,
        requiresSingleWriter: true,
        atomicDocumentUpdates: false,
        concurrentCollectionWriters: true,
        indexesOnlyExactIdFilters: false,
        prefersIdListReads: true,
        maxUpdatesPerCommand: undefined,
        reportsWriteErrorIndexes: false,
      },
    ],
    [
      'stock FerretDB (v1.24.2)',
      STOCK_FERRETDB_BUILD_INFO,
      {
        name: 'FerretDB',
        version: '1.24.2',
        compatibleWith: '7.0.42',
        supportsTtlIndexes: false,
        requiresSingleWriter: true,
        atomicDocumentUpdates: false,
        concurrentCollectionWriters: false,
        indexesOnlyExactIdFilters: true,
        prefersIdListReads: false,
        maxUpdatesPerCommand: 90,
        reportsWriteErrorIndexes: false,
      },
    ],
  ])('recognises %s from its buildInfo', (_name, buildInfo, expected) => {
    expect(detectEngine(buildInfo)).toEqual(expected);
  });

  it('takes a FerretDB build whose version has no -tallyN suffix for a stock one', () => {
    expect(
      detectEngine({ ...PATCHED_FERRETDB_BUILD_INFO, ferretdbVersion: 'v1.24.2-tally' }).maxUpdatesPerCommand,
    ).toBe(90);
  });

  it.each([
    ['v1.24.2-tally17', false],
    ['v1.24.2-tally18', true],
    ['v1.24.2-tally104', true],
    ['v1.24.2', false],
    ['v1.24.2-tally', false],
  ])('knows whether FerretDB %s takes turns on updates: %s', (ferretdbVersion, atomic) => {
    expect(detectEngine({ ...PATCHED_FERRETDB_BUILD_INFO, ferretdbVersion }).atomicDocumentUpdates).toBe(atomic);
  });

  it('reports an unknown version when buildInfo has none', () => {
    expect(detectEngine({ ok: 1 })).toMatchObject({ name: 'MongoDB', version: 'unknown', compatibleWith: 'unknown' });
  });
});
