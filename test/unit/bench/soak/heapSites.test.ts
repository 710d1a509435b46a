import { frameName, grownSites, isOwnFrame, liveBytesBySite, profileBytes } from '../../../../bench/soak/heapSites';
import type { HeapCallFrame, HeapProfile, HeapProfileNode } from '../../../../bench/soak/heapSites';

function frame(functionName: string, url = '', lineNumber = 0): HeapCallFrame {
  return { functionName, url, lineNumber, columnNumber: 0 };
}

function node(callFrame: HeapCallFrame, selfSize: number, children: HeapProfileNode[] = []): HeapProfileNode {
  return { callFrame, selfSize, children };
}

const ROOT = frame('(root)');
const TRACKER = frame('remember', 'file:///repo/dist/src/ingest/VisitTracker.js', 41);
const LIBRARY = frame('set', 'file:///repo/node_modules/lru/index.js', 9);

function profile(trackerBytes: number, libraryBytes: number, rootBytes = 0): HeapProfile {
  return {
    head: node(ROOT, rootBytes, [node(TRACKER, trackerBytes, [node(LIBRARY, libraryBytes, [node(frame('Map'), 64)])])]),
  };
}

describe('heapSites', () => {
  test.each([
    ['file:///repo/dist/src/ingest/VisitTracker.js', true],
    ['/repo/src/store/CounterBatch.ts', true],
    ['file:///repo/node_modules/graphql/src/language/parser.js', false],
    ['node:internal/streams/readable', false],
    ['', false],
  ])('isOwnFrame(%s) is %s', (url, own) => {
    expect(isOwnFrame(frame('f', url))).toBe(own);
  });

  test('frame names keep the path from src/ or node_modules/ on, with 1-based lines', () => {
    expect(frameName(TRACKER)).toBe('remember src/ingest/VisitTracker.js:42');
    expect(frameName(LIBRARY)).toBe('set node_modules/lru/index.js:10');
    expect(frameName(frame(''))).toBe('(anonymous)');
  });

  test("a library's or V8's allocation is charged with the nearest tally frame under it", () => {
    const sites = liveBytesBySite(profile(1000, 500, 7));
    expect(Object.fromEntries(sites)).toEqual({
      '(root)': 7,
      'remember src/ingest/VisitTracker.js:42': 1000,
      'set node_modules/lru/index.js:10 ← remember src/ingest/VisitTracker.js:42': 500,
      'Map ← remember src/ingest/VisitTracker.js:42': 64,
    });
    expect(profileBytes(profile(1000, 500, 7))).toBe(1571);
  });

  test('grown sites: largest growth first, shrunk and unchanged ones left out, at most `top`', () => {
    const grown = grownSites(profile(1000, 500), profile(1200, 5000), 10);
    expect(grown).toEqual([
      {
        site: 'set node_modules/lru/index.js:10 ← remember src/ingest/VisitTracker.js:42',
        beforeBytes: 500,
        afterBytes: 5000,
      },
      { site: 'remember src/ingest/VisitTracker.js:42', beforeBytes: 1000, afterBytes: 1200 },
    ]);
    expect(grownSites(profile(1000, 500), profile(900, 5000), 1)).toHaveLength(1);
    expect(grownSites(profile(1000, 500), profile(1000, 500), 10)).toEqual([]);
  });
});
