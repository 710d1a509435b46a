/** Section 11 of the report: both systems labelled, tally ÷ GoatCounter per figure, issue 27's targets judged. */
import { renderPeer } from '../../../../bench/report/renderPeer';
import type { BenchResults } from '../../../../bench/suite/BenchResults';
import type { PeerRun } from '../../../../bench/suite/peer';
import { PEER_SHAPES } from '../../../../bench/peer/peerTraffic';

const TALLY = 'tally (embedded FerretDB 1.24.2-tally10)';
const PEER = 'GoatCounter v2.7.0 (SQLite)';
const latency = (p50: number) => ({ n: 10, p50, p95: p50, p99: p50, mean: p50 });

function run(shape: 'live' | 'backfill', tally: boolean, figures: Partial<PeerRun>): PeerRun {
  return {
    shape,
    system: tally ? 'tally' : 'goatcounter',
    label: tally ? TALLY : PEER,
    hits: 10_000,
    requests: 100,
    errors: 0,
    expectedTotal: 10_000,
    countedTotal: 10_000,
    sendMs: 1_000,
    countedMs: 2_000,
    hitsPerSecond: 5_000,
    cpuUsPerHit: 100,
    requestLatencyMs: latency(10),
    diskBytes: 1_048_576,
    storedBytes: tally ? 1_572_864 : 1_048_576,
    queries: [
      {
        kind: 'topPages30Days',
        label: 'top 10 pages, 30 days',
        latencyMs: latency(4),
        answer: '/a 3',
        ...(tally ? {} : { mismatch: '"/a": 2, expected 3' }),
      },
    ],
    ...figures,
  };
}

const results = {
  command: 'npm run bench -- --quick --only peer',
  peer: {
    hits: 10_000,
    pages: 500,
    batch: 100,
    clients: 4,
    visitorPool: 2_000,
    queryRounds: 10,
    shapes: PEER_SHAPES,
    runs: [
      // live: tally uses half GoatCounter's CPU but counts at half its rate.
      run('live', true, { cpuUsPerHit: 50, hitsPerSecond: 2_500 }),
      run('live', false, {}),
      // backfill: 4× the CPU (target ≤ 3×), the same disk (target ≤ 1.5×).
      run('backfill', true, { cpuUsPerHit: 400 }),
      run('backfill', false, {}),
    ],
  },
} as unknown as BenchResults;

describe('renderPeer', () => {
  const report = renderPeer(results);

  it('labels the section with both systems and gives each figure with its ratio', () => {
    expect(report).toContain(`## 11. Side by side with GoatCounter (${TALLY}; ${PEER})`);
    expect(report).toContain('| CPU per hit, all processes | 50 µs | 100 µs | 0.5× | 400 µs | 100 µs | 4× |');
    expect(report).toContain('| top 10 pages, 30 days, p50 | 4 ms | 4 ms | 1× | 4 ms | 4 ms | 1× |');
  });

  it('judges each target of issue 27', () => {
    expect(report).toContain('| CPU per hit, all processes, live | 0.5× | ≤ 1× | met |');
    expect(report).toContain('| hits/s until every hit is counted, live | 0.5× | ≥ 1× | **missed** |');
    expect(report).toContain('| CPU per hit, all processes, backfill | 4× | ≤ 3× | **missed** |');
    expect(report).toContain('| disk per stored hit (after a clean stop), backfill | 1.5× | ≤ 1.5× | met |');
    expect(report).toContain(
      '| disk per stored hit (running, write-ahead logs included), backfill | 1× | ≤ 1.5× | met |',
    );
    expect(report).toContain('| disk after a clean stop | 1.5 MiB | 1 MiB | 1.5× |');
    expect(report).toContain('not judged: 10,000 hits here');
  });

  it('prints every answer with its check against the truth', () => {
    expect(report).toContain('| live, tally | top 10 pages, 30 days | /a 3 | equals the truth |');
    expect(report).toContain('| live, GoatCounter | top 10 pages, 30 days | /a 3 | **differs**: "/a": 2, expected 3 |');
  });

  it('is empty when the section did not run', () => {
    expect(renderPeer({ ...results, peer: undefined } as BenchResults)).toBe('');
  });
});
