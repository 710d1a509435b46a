/**
 * What the visit tracker's cache (src/ingest/VisitTracker.ts) holds in heap per visitor, by how many distinct pages
 * the visit has viewed: each visit's state keeps a hash of every page it viewed (up to MAX_SEEN_PAGES), so a
 * process's visit heap grows while its visits grow longer, up to that bound, and a soak whose visitors never pause
 * for the timeout grows for all of it. Builds `--sessions` states with advanceVisit from pageviews 20 s apart, keeps
 * them as the cache does (id → version, state, time), and reads the heap after a full GC. No thresholds.
 *   npm run build && node --expose-gc dist/bench/probes/visitStateHeap.js [--sessions 20000]
 */
import { advanceVisit } from '../../src/domain/visits/advanceVisit';
import type { VisitHit, VisitState } from '../../src/domain/visits/VisitState';
import { MAX_SEEN_PAGES } from '../../src/domain/visits/VisitState';
import { parseOptions } from '../shared/options';

const options = parseOptions(process.argv.slice(2), { sessions: { kind: 'integer', default: 20_000 } });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const collect = gc;

const START = Date.UTC(2026, 10, 29, 12);
const TIMEOUT_MS = 30 * 60_000;

function heapUsed(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/** Bytes of heap per remembered state after `pages` pageviews on distinct pages. */
function bytesPerSession(pages: number): number {
  const before = heapUsed();
  const cache = new Map<string, { version: string; state: VisitState | undefined; writtenAt: number }>();
  for (let v = 0; v < options.sessions; v++) {
    // Strings parsed per hit, as a request's are: a state keeps its own entry and exit pages and dimension values.
    const dimensions = JSON.parse(
      '{"source":"Google","utmSource":"(none)","utmMedium":"(none)","utmCampaign":"(none)",' +
        '"browser":"Chrome","os":"Windows","device":"desktop","country":"DE"}',
    ) as VisitHit['dimensions'];
    let state: VisitState | undefined;
    for (let p = 0; p < pages; p++) {
      const page = JSON.parse(`"/articles/${String((v * 7 + p * 13) % 1000).padStart(4, '0')}.html"`) as string;
      const hit: VisitHit = { site: 'probe.example', page, at: START + p * 20_000, count: 1, dimensions };
      state = advanceVisit(state, [hit], TIMEOUT_MS).state;
    }
    cache.set(`session-${v}`.padEnd(22, '.'), { version: `lane-${v % 7}:${v}`, state, writtenAt: START });
  }
  const bytes = (heapUsed() - before) / options.sessions;
  if (cache.size !== options.sessions) throw new Error('the cache lost sessions');
  return bytes;
}

process.stdout.write(
  `${options.sessions} cached visit states, node ${process.version}\n` +
    '| distinct pages viewed | heap per cached visit |\n| --- | --- |\n',
);
for (const pages of [1, 4, 16, 32, MAX_SEEN_PAGES]) {
  process.stdout.write(`| ${pages} | ${bytesPerSession(pages).toFixed(0)} bytes |\n`);
}
